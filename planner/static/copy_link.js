// "Copy link" buttons: copy the named field's text to the clipboard and say so to screen readers.
(function () {
  'use strict';

  function announce(button, text) {
    var status = button.closest('section, form, div').parentNode.querySelector('[data-copy-status]');
    if (status) { status.textContent = text; }
  }

  document.addEventListener('click', function (event) {
    var button = event.target.closest('[data-copy-target]');
    if (!button) { return; }
    var field = document.getElementById(button.getAttribute('data-copy-target'));
    if (!field) { return; }
    field.select();
    var done = function () { announce(button, 'Link copied to the clipboard.'); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, function () {
        announce(button, 'Copying was blocked; the link is selected, press Ctrl+C (Cmd+C on a Mac).');
      });
    } else if (document.execCommand && document.execCommand('copy')) {
      done();
    } else {
      announce(button, 'The link is selected; press Ctrl+C (Cmd+C on a Mac) to copy it.');
    }
  });
}());
