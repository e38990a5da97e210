/* Castle: the play-time clock ticks between moves.
 *
 * The server measures play time (games/services.py): every gap between two actions counts,
 * up to a cap, so a tab left open does not. The counter's <time> carries the time stored
 * (data-elapsed), the gap since the last action when the page was drawn (data-since) and the
 * cap (data-cap); this shows their sum as it grows, which is what the server will count if
 * the player moves now. Each move swaps #counter and brings the server's figure back.
 * Without JavaScript the time changes with each move.
 */
(function () {
  "use strict";

  var seen = new WeakMap();

  function format(total) {
    var hours = Math.floor(total / 3600);
    var minutes = Math.floor((total % 3600) / 60);
    var seconds = total % 60;
    var ss = (seconds < 10 ? "0" : "") + seconds;
    if (!hours) return minutes + ":" + ss;
    return hours + ":" + (minutes < 10 ? "0" : "") + minutes + ":" + ss;
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("time[data-elapsed]").forEach(function (el) {
      if (!seen.has(el)) seen.set(el, now);
      var since = Number(el.dataset.since) + (now - seen.get(el)) / 1000;
      var total = Number(el.dataset.elapsed) + Math.min(since, Number(el.dataset.cap));
      var text = format(Math.floor(total));
      if (el.textContent !== text) el.textContent = text;
    });
  }

  tick();
  setInterval(tick, 500);
  document.addEventListener("htmx:afterSettle", tick);
})();
