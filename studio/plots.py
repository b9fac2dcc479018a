"""Plot helpers: fills and marker shapes besides colour, and heatmap cells that answer a click."""
from __future__ import annotations


# Bar fills besides colour, so that series stay apart in grey, in print and for colour-blind
# readers (plotly's marker.pattern.shape).
PATTERNS = ["", "/", ".", "x", "\\", "-", "+", "|"]


SYMBOLS = ["circle", "square", "diamond", "triangle-up", "x", "triangle-down", "star", "cross", "hexagon",
           "pentagon", "triangle-left", "triangle-right", "hourglass", "bowtie", "star-diamond", "circle-open",
           "square-open", "diamond-open"]  # marker shapes, for the same reason


def clickable(fig, xs, ys, hover=None, size=18) -> None:
    """Plotly heatmaps report no selection when clicked; an invisible square marker on every cell
    does, and carries the cell's hover text.  The heatmap traces stop answering hover."""
    import plotly.graph_objects as go

    for tr in fig.data:
        tr.hoverinfo = "skip"
        tr.hovertemplate = None
    px, py, txt = [], [], []
    for i, y in enumerate(ys):
        for j, x in enumerate(xs):
            px.append(x)
            py.append(y)
            txt.append(hover[i][j] if hover is not None else f"{y} / {x}")
    fig.add_trace(go.Scatter(x=px, y=py, mode="markers", text=txt, hovertemplate="%{text}<extra></extra>",
                             marker=dict(symbol="square", size=size, opacity=0), showlegend=False,
                             selected=dict(marker=dict(opacity=0)), unselected=dict(marker=dict(opacity=0))))
    fig.update_layout(clickmode="event+select", dragmode=False)


def clicked(event) -> dict | None:
    """The first point a chart selection reports, or None."""
    pts = (event or {}).get("selection", {}).get("points", []) if event else []
    return pts[0] if pts else None
