"""Advice over several builds: the evaluation the window, the PDF and the CLI share,
verdicts and fit sweeps, the comparison document and the formulas shown in Help.

May import: everything else in ``advisor.core``.
"""
