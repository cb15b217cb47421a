// The sheet form's -/+ buttons: one less or one more in the number they name, then the same
// "input" event typing makes (so the live check runs). No rules here: the engine checks.
document.addEventListener("click", function (event) {
  const button = event.target.closest("button[data-step][data-for]");
  if (!button) return;
  const input = document.getElementById(button.dataset.for);
  if (!input) return;
  if (input.value === "") input.value = "0";
  if (button.dataset.step === "1") input.stepUp(); else input.stepDown();
  input.dispatchEvent(new Event("input", { bubbles: true }));
});
