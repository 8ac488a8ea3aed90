// The filter box of index.html: keeps the compile ids and build products whose text contains every
// word typed (case-insensitive); a compile id that matches keeps all of its products.
function filterArtifacts(query) {
  const words = query.toLowerCase().split(/\s+/).filter(function (w) { return w.length > 0; });
  const matches = function (text) {
    text = text.toLowerCase();
    return words.every(function (w) { return text.indexOf(w) >= 0; });
  };
  let shownGroups = 0, shownItems = 0;
  document.querySelectorAll('li.compile-group').forEach(function (group) {
    const groupMatches = matches(group.dataset.compileId);
    let anyItem = false;
    group.querySelectorAll('li.artifact').forEach(function (item) {
      const show = groupMatches || matches(group.dataset.compileId + ' ' + item.textContent);
      item.style.display = show ? '' : 'none';
      if (show) { anyItem = true; shownItems += 1; }
    });
    const showGroup = words.length === 0 || groupMatches || anyItem;
    group.style.display = showGroup ? '' : 'none';
    if (showGroup) shownGroups += 1;
  });
  const status = document.getElementById('artifact-filter-status');
  if (status) status.textContent = words.length === 0 ? '' :
      shownGroups + ' compile id(s), ' + shownItems + ' product(s) shown';
}
