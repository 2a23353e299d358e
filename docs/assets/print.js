// The print edition (docsys/build/print_edition): puts each page's article into its empty section.
// Once the page has loaded, the articles are fetched at once, and each is put in place, in order, a piece
// at a time (the build cuts pieces at an article's top-level elements), yielding to the browser between
// pieces, so that the contents list shows at once and the page answers a tap while it fills. When all are
// in place the status line says so, <html data-print-edition="complete"> marks it (the tests print then),
// and a #fragment in the address, whose target was not there at load, is scrolled to.
(() => {
  const PIECE = "<!-- print-piece -->";
  const status = document.getElementById("print-status");
  const sections = [...document.querySelectorAll("section.print-page[data-src]")];
  const yieldToBrowser = () =>
    globalThis.scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
  const say = (template, count) =>
    (status.textContent = template.replace("{count}", count).replace("{total}", sections.length));

  async function fill() {
    const texts = sections.map((section) =>
      fetch(section.dataset.src).then((response) => {
        if (!response.ok) throw new Error(`print edition: ${response.status} for ${response.url}`);
        return response.text();
      }),
    );
    for (const [index, section] of sections.entries()) {
      for (const piece of (await texts[index]).split(PIECE)) {
        section.insertAdjacentHTML("beforeend", piece);
        await yieldToBrowser();
      }
      say(status.dataset.loading, index + 1);
    }
    say(status.dataset.done, sections.length);
    document.documentElement.dataset.printEdition = "complete";
    if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
  }

  const start = () =>
    fill().catch((error) => {
      status.textContent = error.message;
      console.error(error);
    });
  // After the load event: the articles do not compete with what the page needs to show.
  if (document.readyState === "complete") start();
  else addEventListener("load", start, { once: true });
})();
