/* Castle: keyboard shortcuts on the game page.
 *
 *   Z, U, Ctrl+Z (Cmd+Z)                undo
 *   Y, Ctrl+Y, Ctrl+Shift+Z (Cmd+Shift+Z)   redo
 *   H                                   hint
 *
 * Each key clicks the page's own button, so its action goes through the same form and htmx
 * request as a click. While that button is disabled the key does nothing, unless a request
 * is in flight: the board script keeps it for its answer (board.js, CastleKeepKey; Hint
 * once). Without JavaScript the buttons' accesskeys still work. Keys typed into a field are
 * left alone.
 */
(function () {
  "use strict";

  function typing(el) {
    return el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
  }

  // The control a key names (its button's formaction), or null.
  function action(event) {
    var key = event.key.toLowerCase();
    if (event.altKey) return null;
    if (event.ctrlKey || event.metaKey) {
      if (key === "z") return event.shiftKey ? "redo" : "undo";
      return key === "y" && !event.shiftKey ? "redo" : null;
    }
    if (event.shiftKey) return null;
    return { z: "undo", u: "undo", y: "redo", h: "hint" }[key] || null;
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.repeat || typing(document.activeElement)) return;
    var name = action(event);
    if (!name) return;
    var button = document.querySelector('#controls button[formaction="' + name + '"]');
    if (!button) return;
    event.preventDefault();
    if (!button.disabled) button.click();
    else if (window.CastleKeepKey) window.CastleKeepKey(name);
  });
})();
