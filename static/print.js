// Print sheets: shows the print button where scripts run. Without them the page still
// says to use the browser's print command; the button stays hidden.
(function () {
  var button = document.getElementById("print-button");
  if (!button) {
    return;
  }
  button.hidden = false;
  button.addEventListener("click", function () {
    window.print();
  });
})();
