/* Castle: the home page's game names follow the "New games deal" choice.
 *
 * Each game's name is a link to a new game of it, as its "New game" button is a submit of
 * the choice's form. Changed and not yet submitted, the choice did not reach the links: a
 * name clicked after choosing "Winnable deal, easy" dealt a hard one, and the choice was
 * not remembered (a player's pass). Each link now carries the choice, as the button's
 * submit does (with "remember"). Without this script the links deal as the remembered
 * choice, which the menu shows when the page loads.
 */
(function () {
  "use strict";

  var form = document.getElementById("new-game");
  var select = form && form.elements.namedItem("deals");
  if (!select) return;

  function follow() {
    var links = document.querySelectorAll("a.play-link");
    for (var i = 0; i < links.length; i++) {
      var url = new URL(links[i].href);
      url.searchParams.set("deals", select.value);
      url.searchParams.set("remember", "1");
      links[i].href = url.pathname + url.search;
    }
  }

  select.addEventListener("change", follow);
  /* Back to this page, the browser may restore a choice the page was not drawn with. */
  window.addEventListener("pageshow", follow);
})();
