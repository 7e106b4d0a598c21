// The paper pack's "Print" button (console/views/paper.py): shown only where this script
// runs, so a page without it says how to print from the browser's menu instead.
document.querySelectorAll(".paper-print").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
});
