/* Castle: keyboard shortcuts on the game page.
 *
 *   Z, U, Ctrl+Z (Cmd+Z)   undo
 *
 * The key clicks the page's own Undo button, so an undo goes through the same form and htmx
 * request as a click (and does nothing while that button is disabled). Without JavaScript the
 * button's accesskey still works. Keys typed into a field are left alone.
 */
(function () {
  "use strict";

  function typing(el) {
    return el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
  }

  function isUndo(event) {
    var key = event.key.toLowerCase();
    if (event.altKey || event.shiftKey) return false;
    if (event.ctrlKey || event.metaKey) return key === "z";
    return key === "z" || key === "u";
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.repeat || typing(document.activeElement)) return;
    if (!isUndo(event)) return;
    var undo = document.querySelector('#controls button[formaction="undo"]');
    if (!undo) return;
    event.preventDefault();
    if (!undo.disabled) undo.click();
  });
})();
