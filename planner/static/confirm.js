// Behaviour that would otherwise sit in inline event handlers, which the content security policy
// refuses: a question before a destructive form is sent, and filters that apply on change.
//   <form data-confirm="Retire X?">            asks before the form is sent
//   <button data-confirm="Submit it?">         asks before this button sends its form
//   <select data-autosubmit>                   sends its form when the choice changes
(function () {
  'use strict';

  document.addEventListener('submit', function (event) {
    var form = event.target;
    var button = event.submitter;
    var question = (button && button.dataset.confirm) || form.dataset.confirm;
    if (question && !window.confirm(question)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  document.addEventListener('change', function (event) {
    var control = event.target;
    if (control.matches && control.matches('[data-autosubmit]') && control.form) {
      control.form.submit();
    }
  });
})();
