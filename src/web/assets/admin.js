// Saeng admin page: progressive enhancement only. Every page works without this script (plain forms); with it,
// deletions ask first. Loaded from this origin (the Content-Security-Policy allows no inline script).

/** Forms marked data-confirm ask before they post (deleting a document or a knowledge base). */
function confirmForms() {
  for (const form of document.querySelectorAll('form[data-confirm]')) {
    form.addEventListener('submit', (event) => {
      if (!window.confirm(form.dataset.confirm ?? '')) event.preventDefault();
    });
  }
}

document.addEventListener('DOMContentLoaded', () => {
  confirmForms();
});
