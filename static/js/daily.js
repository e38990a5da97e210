// The daily page: show when the next challenge starts in the player's own time zone, and
// count down to it. Without JavaScript the page shows the time left in UTC terms.
for (const element of document.querySelectorAll("time.countdown")) {
  const at = new Date(element.getAttribute("datetime"));
  const local = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const tick = () => {
    const seconds = Math.max(0, Math.round((at - Date.now()) / 1000));
    const h = Math.floor(seconds / 3600);
    const m = String(Math.floor((seconds % 3600) / 60)).padStart(2, "0");
    const s = String(seconds % 60).padStart(2, "0");
    element.textContent = `in ${h}:${m}:${s} (at ${local}, your time)`;
  };
  tick();
  setInterval(tick, 1000);
}
