// The sheet editor: put the cursor on a line of the YAML text (a problem's field). No rules here.
function taletableGoToLine(id, line) {
  const area = document.getElementById(id);
  if (!area) return;
  const lines = area.value.split("\n");
  let start = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) start += lines[i].length + 1;
  const end = start + (lines[line - 1] || "").length;
  area.focus();
  area.setSelectionRange(start, end);
  const height = area.scrollHeight / Math.max(lines.length, 1);
  area.scrollTop = Math.max(0, (line - 3) * height);
}
document.addEventListener("click", function (event) {
  const button = event.target.closest("button[data-line]");
  if (button) taletableGoToLine(button.dataset.target, Number(button.dataset.line));
});
