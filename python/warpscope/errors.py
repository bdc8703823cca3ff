"""warpscope.errors: the one exception the package raises for bad input.

It carries what the CLI prints after ``warpscope:``: the message, and where the problem
is (file, 1-based line and column; line 0 when there is no position), and ``str(e)`` is
the CLI's rendering (``file:line:col: error: message`` with the source line and a caret).
"""


class WarpscopeError(Exception):
    """A problem with a kernel, its launch or its arguments (as the CLI reports it)."""

    def __init__(self, message, file="", line=0, column=0, rendered=None):
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.rendered = rendered if rendered is not None else message
        self.report = None  # the partial Report, when the emulation itself failed
        super().__init__(self.rendered)

    def __str__(self):
        return self.rendered
