/* Replay: the arrow keys (and Home/End) step through the moves by following the navigation
 * links, which htmx enhances; without JavaScript the links still work.
 *
 * Play steps forward on its own at the chosen speed until the last move or Pause (Space
 * toggles it). Each step clicks the Next link, so playing is the same request as a click;
 * the next step waits for the swap, so a slow server only slows the replay down.
 *
 * The move list keeps the current move in its view: the list scrolls, never the page.
 */
(function () {
  "use strict";

  var playing = false;
  var timer = null;
  var seen = null; /* the move at the top of the list a step replaces, and where it was */
  var stepping = false; /* a step's request is on its way */
  var kept = []; /* keys pressed meanwhile, each a step taken once the step before is in */
  var KEPT_MAX = 8;
  var STEPS = ["ArrowLeft", "ArrowRight", "Home", "End"]; /* the nav links' data-key */

  function nav() {
    return document.querySelector("#replay .replay-nav");
  }

  function link(key) {
    var a = document.querySelector('#replay .replay-nav a[data-key="' + key + '"]');
    return a && a.getAttribute("aria-disabled") !== "true" ? a : null;
  }

  function speed() {
    var select = document.querySelector("#replay .speed select");
    return select ? parseInt(select.value, 10) : 800;
  }

  /* The nav is replaced on every step: show the controls and keep their state. */
  function render() {
    var n = nav();
    if (!n) return;
    var button = n.querySelector(".play");
    var label = n.querySelector(".speed");
    button.hidden = false;
    label.hidden = false;
    button.setAttribute("aria-pressed", playing ? "true" : "false");
    button.textContent = playing ? "Pause" : "Play";
    var select = label.querySelector("select");
    var chosen = sessionStorage.getItem("castle-replay-speed");
    if (chosen && select.querySelector('option[value="' + chosen + '"]')) select.value = chosen;
  }

  function moveList() {
    return document.querySelector("#replay .move-list");
  }

  /* The top of the list's visible part, and the list's own moves (numbered from its start:
   * a long game's list is a window around the current move). */
  function viewTop(list) {
    return list.getBoundingClientRect().top + list.clientTop;
  }

  function item(list, number) {
    return list.children[number - list.start] || null;
  }

  /* Which move shows first in the list, and how far from the list's top. */
  function firstSeen() {
    var list = moveList();
    if (!list) return null;
    var top = viewTop(list);
    for (var i = 0; i < list.children.length; i++) {
      var box = list.children[i].getBoundingClientRect();
      if (box.bottom > top) return { number: list.start + i, offset: box.top - top };
    }
    return null;
  }

  /* Scroll the list (never the page) as little as shows the current move whole, from where
   * the list a step replaced stood: stepping moves it a line at a time. */
  function reveal() {
    var list = moveList();
    if (!list) return;
    var was = seen && item(list, seen.number);
    if (was) list.scrollTop += was.getBoundingClientRect().top - viewTop(list) - seen.offset;
    seen = null;
    var current = list.querySelector('[aria-current="step"]');
    if (!current) { list.scrollTop = 0; return; } /* before the first move */
    var top = viewTop(list);
    var bottom = top + list.clientHeight;
    var box = current.getBoundingClientRect();
    if (box.top < top) list.scrollTop -= top - box.top;
    else if (box.bottom > bottom) list.scrollTop += Math.min(box.bottom - bottom, box.top - top);
  }

  function schedule() {
    clearTimeout(timer);
    if (!playing) return;
    timer = setTimeout(function () {
      var next = link("ArrowRight");
      if (!next) { stop(); return; }
      next.click();
    }, speed());
  }

  function start() {
    if (!link("ArrowRight")) {
      var first = link("Home");
      if (!first) return;
      playing = true;
      render();
      first.click();
      return;
    }
    playing = true;
    render();
    schedule();
  }

  function stop() {
    playing = false;
    clearTimeout(timer);
    render();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("#replay .play");
    if (button) {
      if (playing) stop(); else start();
      return;
    }
    /* A step chosen by hand pauses the replay. */
    if (event.isTrusted && event.target.closest("#replay a")) stop();
  });

  document.addEventListener("change", function (event) {
    if (!event.target.closest("#replay .speed select")) return;
    sessionStorage.setItem("castle-replay-speed", event.target.value);
    schedule();
  });

  document.addEventListener("htmx:beforeSwap", function () { seen = firstSeen(); });

  /* A key pressed while a step is on its way is kept for its answer: htmx drops a second
     request from the same link, and quick arrow presses were lost (a player's pass). */
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.target.closest && event.target.closest("#replay")) stepping = true;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail.successful) { stepping = false; kept = []; }
  });

  function nextKept() {
    stepping = false;
    while (kept.length) {
      var a = link(kept.shift());
      if (a) { a.click(); return; }
    }
  }

  document.addEventListener("htmx:afterSwap", reveal);
  document.addEventListener("htmx:historyRestore", reveal);

  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.target.closest || !document.getElementById("replay")) return;
    render();
    if (playing) { if (link("ArrowRight")) schedule(); else stop(); }
    if (event.target.id === "replay") nextKept(); /* not for the words' out-of-band swap */
  });

  /* A field keeps its keys. A button keeps Space (it presses the button), but not the
   * arrows, Home or End, which a button has no use for: after a click on Play or Pause the
   * focus stays on it, and the arrows must still step the replay. */
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest("input, textarea, select")) return;
    if (event.key === " " && event.target.closest("button")) return;
    if (event.key === " " && nav()) {
      event.preventDefault();
      if (playing) stop(); else start();
      return;
    }
    if (STEPS.indexOf(event.key) < 0 || !nav()) return;
    event.preventDefault();
    stop();
    if (stepping) {
      if (kept.length < KEPT_MAX) kept.push(event.key);
      return;
    }
    var a = link(event.key);
    if (a) a.click();
  });

  function ready() {
    render();
    reveal();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
