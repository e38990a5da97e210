/* Castle: the play-time clock ticks between moves.
 *
 * The server measures play time (games/services.py): every gap between two actions counts,
 * up to a cap, so a tab left open does not. The counter's <time> carries the time stored
 * (its datetime, PT187S), the gap since the last action when the page was drawn (data-since,
 * 0 when absent) and the cap (data-cap, only on a clock that ticks); this shows their sum as
 * it grows, which is what the server will count if the player moves now. Each move swaps the
 * clock and brings the server's figure back.
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
    document.querySelectorAll("time[data-cap]").forEach(function (el) {
      if (!seen.has(el)) seen.set(el, now);
      var stored = /^PT(\d+)S$/.exec(el.getAttribute("datetime") || "");
      var since = Number(el.dataset.since || 0) + (now - seen.get(el)) / 1000;
      var total = (stored ? Number(stored[1]) : 0) + Math.min(since, Number(el.dataset.cap));
      var text = format(Math.floor(total));
      if (el.textContent !== text) el.textContent = text;
    });
  }

  tick();
  setInterval(tick, 500);
  document.addEventListener("htmx:afterSettle", tick);
})();
