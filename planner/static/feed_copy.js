// Interviewer home: copy the calendar feed address to the clipboard and say so.
(function () {
  'use strict';
  var button = document.getElementById('copy-feed');
  if (!button) { return; }
  button.addEventListener('click', function () {
    var input = document.querySelector(button.dataset.copy);
    var status = document.getElementById('copy-status');
    input.select();
    var done = function () { status.textContent = 'Copied to the clipboard.'; };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () { document.execCommand('copy'); done(); });
    } else { document.execCommand('copy'); done(); }
  });
})();
