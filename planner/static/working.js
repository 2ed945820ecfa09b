// Actions that run the scheduler take a few seconds (a hiring event of 40 loops: 2-6 s). The control
// says so at once, the page is marked busy, and a form already sent is not sent a second time (a
// double click on "Confirm" would otherwise come back as a conflict with the first).
(function () {
  'use strict';

  function markWorking(control) {
    if (!control.dataset.idleLabel) { control.dataset.idleLabel = control.textContent; }
    control.classList.add('is-working');
    control.setAttribute('aria-disabled', 'true');
    if (control.dataset.working) { control.textContent = control.dataset.working; }
    document.body.setAttribute('aria-busy', 'true');
  }

  function plainClick(event) {
    return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
  }

  document.addEventListener('click', function (event) {
    var link = event.target.closest('a[data-working]');
    if (!link || event.defaultPrevented || !plainClick(event)) { return; }
    if (link.classList.contains('is-working')) { event.preventDefault(); return; }
    markWorking(link);
  });

  document.addEventListener('submit', function (event) {
    var form = event.target;
    // The button that sent the form (Enter in a field: the form's first submit button).
    var button = event.submitter || form.querySelector('button[type=submit], button:not([type])');
    if (!button || !button.matches('[data-working]') || event.defaultPrevented) { return; }
    if (form.dataset.sent === '1') { event.preventDefault(); return; }
    form.dataset.sent = '1';
    // The button is not disabled: a disabled submitter would drop its name and value from the form.
    markWorking(button);
  });

  // A page restored by the Back button comes from the cache as it was left: working. Reset it.
  window.addEventListener('pageshow', function (event) {
    if (!event.persisted) { return; }
    document.querySelectorAll('.is-working').forEach(function (control) {
      control.classList.remove('is-working');
      control.removeAttribute('aria-disabled');
      if (control.dataset.idleLabel) { control.textContent = control.dataset.idleLabel; }
    });
    document.querySelectorAll('form[data-sent]').forEach(function (form) { delete form.dataset.sent; });
    document.body.removeAttribute('aria-busy');
  });
}());
