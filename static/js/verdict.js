// What the task worker is still deciding, shown in place until it is done: the deal's
// verdict badge (#verdict), and an analysis under way (#status, put in by board.js's
// Analyse). Look again after the delay the element names, put the answer's element of the
// same id in its place, and stop when it names none (a badge the answer leaves out goes),
// or once it has left the page or no longer asks (a move's sentence in the status). The
// server counts the badge's looks (?poll=N) and names each next delay; an analysis names
// all of its delays at once (data-poll-delays, growing, one a look), counted here: then
// "Check again", or the next page load, shows the answer.
// The analysis page starts its own looks; the game page's start with board.js's Analyse.
// No htmx on these pages.
(() => {
  "use strict";

  // A live region (the status) stays in the page and takes the new element's attributes
  // and content: screen readers speak what changes inside a region they know, and may say
  // nothing of one put in its place with its words already in it. board.js renews the
  // status so with every answer. A ``kept`` child (the panel an answer left out)
  // stays where it is, after the new content: the status (aria-atomic="false") reads out
  // only the nodes it gains.
  function renew(old, fresh, kept = null) {
    Array.from(old.attributes).forEach((attribute) => {
      if (!fresh.hasAttribute(attribute.name)) old.removeAttribute(attribute.name);
    });
    Array.from(fresh.attributes).forEach((attribute) => {
      old.setAttribute(attribute.name, attribute.value);
    });
    if (!kept) {
      old.replaceChildren(...fresh.childNodes);
      return;
    }
    Array.from(old.childNodes).forEach((node) => {
      if (node !== kept) node.remove();
    });
    kept.before(...fresh.childNodes);
  }

  window.CastleRenew = renew;

  function lookAgain(part, looks = 0) {
    const url = part.dataset.pollUrl;
    const delays = part.dataset.pollDelays;
    const delay = Number(delays ? delays.split(" ")[looks] : part.dataset.pollDelay);
    if (!url || !delay) return;
    // A part that no longer asks for this look (the status, in place, now says a move's
    // sentence: static/js/board.js) is done with it, as one that left the page.
    const asking = () => part.isConnected && part.dataset.pollUrl === url;
    window.setTimeout(async () => {
      if (!asking()) return;
      const holder = document.createElement("template");
      let fresh = null;
      let answered = false;
      try {
        // The partial, as htmx would ask for it: a plain request gets the whole page.
        const response = await fetch(url, {
          credentials: "same-origin",
          headers: { "HX-Request": "true" },
        });
        if (response.ok) holder.innerHTML = (await response.text()).trim();
        answered = response.ok;
        fresh = holder.content.getElementById(part.id);
      } catch {
        // Offline or the server is away: as for an error.
      }
      if (!asking()) return;
      if (fresh) {
        // What else the answer names and the page shows (a stuck panel's advice, once the
        // badge says the deal cannot be won) changes with it.
        Array.from(holder.content.children).forEach((el) => {
          const old = el !== fresh && el.id && document.getElementById(el.id);
          if (old) old.replaceWith(el);
        });
        if (part.hasAttribute("aria-live")) {
          renew(part, fresh);
          lookAgain(part, looks + 1);
        } else {
          part.replaceWith(fresh);
          lookAgain(fresh, looks + 1);
        }
      } else if (answered && !delays) {
        // No badge now (the game was won meanwhile: the player proved the deal).
        part.remove();
      } else if (delays) {
        // A look that failed (a deploy, a busy database): an analysis looks again as planned.
        // The badge, whose next delay comes in the answer, waits for the next page load.
        lookAgain(part, looks + 1);
      }
    }, delay * 1000);
  }

  window.CastleLookAgain = (part) => lookAgain(part);

  const badge = document.getElementById("verdict");
  if (badge) lookAgain(badge);
  const analysing = document.querySelector("#status[data-poll-delays]");
  if (analysing) lookAgain(analysing);
})();
