// Replay: the arrow keys (and Home/End) step through the moves by following the
// navigation links, which htmx enhances; without JavaScript the links still work.
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest("input, textarea, select")) return;
  const link = document.querySelector(`#replay .replay-nav a[data-key="${event.key}"]`);
  if (!link || link.getAttribute("aria-disabled") === "true") return;
  event.preventDefault();
  link.click();
});
