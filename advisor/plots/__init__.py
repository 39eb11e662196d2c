"""Plot items drawn from the app's results, one module per chart family; shared by the screen and the PDF.

No QWidget here: each ``*Plot`` owns pyqtgraph ``PlotItem``s (``.items``) that a screen puts in a
``GraphicsLayoutWidget`` and the PDF renders with ``scene().render``. Items are built once;
``update(results, …)`` only calls ``setData``/``setOpts`` (pyqtgraph examples/Plotting.py), so a
change repaints without rebuilding anything.

Renderers only: every number drawn comes with the results (the curves' model sizes, each build's
running cost); nothing here estimates, prices or searches. Imports pyqtgraph and the core's units and
result types only (an import-linter contract in pyproject.toml holds it).
"""

from advisor.plots.axes import wrap_to_width
from advisor.plots.bars import runs, why_no_bar, why_not_in_bar
from advisor.plots.fit import FitPlot, curve_at, fmt_largest
from advisor.plots.memory import MemoryPlot
from advisor.plots.speed import SpeedPlot
from advisor.plots.style import BUILD_COLORS, set_theme
from advisor.plots.value import ValuePlot

__all__ = ["BUILD_COLORS", "FitPlot", "MemoryPlot", "SpeedPlot", "ValuePlot", "curve_at", "fmt_largest", "runs",
           "set_theme", "why_no_bar", "why_not_in_bar", "wrap_to_width"]
