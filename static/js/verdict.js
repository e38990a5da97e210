// The deal's verdict badge (#verdict) while the task worker decides the deal: look again
// after the delay the server names, put its answer in place, and stop when it names none
// (a decided verdict, or enough looks: the next page load shows it). No htmx on this page.
(() => {
  "use strict";

  function lookAgain(badge) {
    const url = badge.dataset.pollUrl;
    const delay = Number(badge.dataset.pollDelay);
    if (!url || !delay) return;
    window.setTimeout(async () => {
      try {
        const response = await fetch(url, { credentials: "same-origin" });
        if (!response.ok) return;
        const holder = document.createElement("template");
        holder.innerHTML = (await response.text()).trim();
        const fresh = holder.content.getElementById("verdict");
        if (!fresh || !badge.isConnected) return;
        badge.replaceWith(fresh);
        lookAgain(fresh);
      } catch {
        // Offline or the server is away: the next page load shows the verdict.
      }
    }, delay * 1000);
  }

  const badge = document.getElementById("verdict");
  if (badge) lookAgain(badge);
})();
