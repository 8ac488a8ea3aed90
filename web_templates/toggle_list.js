// Collapses and expands a node of the stack trie.
function toggleList(toggleItem) {
  const nestedList = toggleItem.parentNode.querySelector('ul');
  if (!nestedList) return;
  nestedList.style.display = nestedList.style.display === 'none' ? 'block' : 'none';
  toggleItem.classList.toggle('collapsed');
}
