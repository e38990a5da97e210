/* Replay: the arrow keys (and Home/End) step through the moves by following the navigation
 * links, which htmx enhances; without JavaScript the links still work.
 *
 * Play steps forward on its own at the chosen speed until the last move or Pause (Space
 * toggles it). Each step clicks the Next link, so playing is the same request as a click;
 * the next step waits for the swap, so a slow server only slows the replay down.
 */
(function () {
  "use strict";

  var playing = false;
  var timer = null;

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

  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.target.closest || !document.getElementById("replay")) return;
    render();
    if (playing) { if (link("ArrowRight")) schedule(); else stop(); }
  });

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest("input, textarea, select, button")) return;
    if (event.key === " " && nav()) {
      event.preventDefault();
      if (playing) stop(); else start();
      return;
    }
    var a = link(event.key);
    if (!a) return;
    event.preventDefault();
    stop();
    a.click();
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", render);
  else render();
})();
