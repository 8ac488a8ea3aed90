// Carries the page's URL query parameters over to every relative link, so a report served behind
// a viewer that needs them keeps working when the user clicks through.
document.addEventListener('DOMContentLoaded', function () {
  const queryParams = new URLSearchParams(window.location.search);
  if (queryParams.size === 0) return;
  const relativeLinks = document.querySelectorAll(
      'a[href]:not([href^="http://"]):not([href^="https://"]):not([href^="#"])');
  relativeLinks.forEach(function (link) {
    const url = new URL(link.getAttribute('href'), window.location.href);
    for (const [key, value] of queryParams) url.searchParams.set(key, value);
    link.setAttribute('href', url.href);
  });
});
