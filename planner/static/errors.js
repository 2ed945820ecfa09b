// A form answered with errors: bring the first one into view and put the cursor in its field, opening any
// collapsed <details> around it, so an error is never left below the fold or inside a closed box. Run once
// the page has loaded, after the browser's own jump to the URL's #fragment (which would move focus away).
window.addEventListener("load", () => {
  const field = document.querySelector('[aria-invalid="true"]');
  const target = field || document.querySelector(".error[role=alert]");
  if (!target) return;
  for (let box = target.closest("details"); box; box = box.parentElement.closest("details")) box.open = true;
  target.scrollIntoView({ block: "center" });
  if (field) field.focus({ preventScroll: true });
});
