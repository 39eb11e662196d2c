"""Units: the one place where byte, GB/GiB and FLOP conversions live.

Vendors print memory capacity in "GB" that are really binary (an "80 GB" H100 reports
81,920 MiB = 80 GiB), while bandwidth is decimal (GB/s = 10^9 B/s). Names carry the unit.
"""

GB = 1_000_000_000
GIB = 1024**3
MIB = 1024**2
TERA = 1e12


def format_bytes(n_bytes: float, binary: bool = True) -> str:
    """Human text for a memory size: GiB (binary, default) or GB (decimal)."""
    if binary:
        return f"{n_bytes / GIB:.1f} GiB"
    return f"{n_bytes / GB:.1f} GB"


def parse_count(text: str) -> float:
    """Parse a parameter count: ``6.74e9``, ``6.74B``, ``70b``, ``500M``, ``1.5T``, ``125k``."""
    s = text.strip().replace("_", "").replace(",", "")
    if not s:
        raise ValueError("empty number")
    suffixes = {"k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12}
    mult = suffixes.get(s[-1].lower())
    if mult is not None:
        s = s[:-1]
    value = float(s) * (mult or 1.0)
    if not value > 0 or value != value or value == float("inf"):
        raise ValueError(f"not a positive finite number: {text!r}")
    return value


def format_usd(usd: float) -> str:
    """Dollars for people: whole dollars, cents below $100 ('$1' against '$2' hid a 1.1× gap)."""
    return f"${usd:,.2f}" if abs(usd) < 100 else f"${usd:,.0f}"


def format_params(n: float | None) -> str:
    """Parameter count for people: '6.74 B', '1.00 T'; '—' when unknown."""
    if n is None or n != n or n in (float("inf"), float("-inf")):
        return "—"
    return f"{n / 1e12:.2f} T" if n >= 1e12 else f"{n / 1e9:.3g} B"
