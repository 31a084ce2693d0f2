"""The key-by-key line editor of the real terminal."""

from __future__ import annotations

from p2pdurak.ui.terminal import LineEditor


def test_ui_terminal_line_editor() -> None:
    ed = LineEditor()
    assert ed.feed(b"b 1") == ([], True) and ed.buffer == "b 1"
    assert ed.feed(b"\x7f2") == ([], True) and ed.buffer == "b 2"
    assert ed.feed(b"\r") == (["b 2"], True) and ed.buffer == ""
    assert ed.feed(b"t\nd\r")[0] == ["t", "d"]
    assert ed.feed(b"xyz\x15q\n")[0] == ["q"]  # Ctrl-U clears the line
    assert ed.feed(b"\x1b[A\x1b[3~1\n")[0] == ["1"]  # arrow keys and delete are ignored
    snowman = "д".encode()
    assert ed.feed(snowman[:1]) == ([], False)  # half a UTF-8 character waits for the rest
    assert ed.feed(snowman[1:] + b"\r")[0] == ["д"]
    assert ed.feed(b"\x04")[0] == [None]  # Ctrl-D on an empty line ends the input
    assert ed.feed(b"a\x04\r")[0] == ["a"]  # but not in the middle of a line
    assert ed.feed(b"\x07\x01\r")[0] == [""]  # other control keys are dropped
