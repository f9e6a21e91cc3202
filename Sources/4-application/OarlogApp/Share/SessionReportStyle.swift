/// The report's style sheet (inline: the file fetches nothing). Plain and printable: dark text on
/// white, the web app's yellow as the accent; one column of at most 900 px, the figures two
/// across on a phone and four on a laptop, the drawings as wide as the column.
extension SessionReport {
    static let style = """
        :root { --fg: #111; --dim: #666; --line: #ddd; --accent: #e0a800; --route: #d6336c; --gate: #1c64d8; }
        * { box-sizing: border-box; }
        html, body { margin: 0; overflow-x: hidden; }
        body { background: #fff; color: var(--fg); font: 16px/1.4 "DejaVu Sans", system-ui, -apple-system, "Segoe UI", sans-serif; }
        main { max-width: 900px; margin: 0 auto; padding: 12px; }
        header h1 { font-size: 24px; margin: 4px 0 2px; overflow-wrap: anywhere; }
        .when { color: var(--dim); margin: 0 0 12px; overflow-wrap: anywhere; }
        h2 { font-size: 17px; margin: 18px 0 6px; border-bottom: 2px solid var(--accent); padding-bottom: 2px; }
        .figures { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 8px; }
        @media (min-width: 700px) { .figures { grid-template-columns: repeat(4, minmax(0, 1fr)); } }
        .figure { border: 1px solid var(--line); border-radius: 8px; padding: 8px 10px; min-width: 0; }
        .figure .value { font-size: 24px; font-weight: bold; font-variant-numeric: tabular-nums; white-space: nowrap;
                         overflow: hidden; text-overflow: ellipsis; }
        .figure .value small { font-size: 13px; font-weight: normal; color: var(--dim); }
        .figure .label { color: var(--dim); font-size: 13px; }
        svg { display: block; width: 100%; height: auto; }
        svg.track { border: 1px solid var(--line); border-radius: 8px; }
        .track .water { fill: #f4f8fb; }
        .track .route { fill: none; stroke: var(--route); stroke-width: 4; stroke-linejoin: round; stroke-linecap: round; }
        .track .gate { fill: none; stroke: var(--gate); stroke-width: 5; }
        .track .area { fill: rgba(28, 100, 216, 0.06); stroke: var(--gate); stroke-width: 2; stroke-dasharray: 8 6; }
        .track text { font-size: 28px; fill: #333; }
        .track .gate-label { fill: var(--gate); font-weight: bold; }
        .track .area-label { fill: var(--gate); font-style: italic; }
        .track .stem { stroke: #111; stroke-width: 3; }
        .pin circle { stroke: #fff; stroke-width: 3; }
        .pin.start circle { fill: #1e9e3a; }
        .pin.finish circle { fill: #111; }
        .pin text { fill: #fff; font-size: 24px; font-weight: bold; text-anchor: middle; }
        .scale path { fill: none; stroke: #333; stroke-width: 3; }
        .north path { fill: #333; }
        .north text { text-anchor: middle; font-weight: bold; }
        .caption { color: var(--dim); font-size: 13px; margin: 4px 0 0; }
        .key { display: inline-block; width: 1.4em; text-align: center; border-radius: 50%; color: #fff; font-weight: bold; font-size: 11px; }
        .key.start { background: #1e9e3a; }
        .key.finish { background: #111; }
        .plot { border: 1px solid var(--line); border-radius: 8px; }
        .plot .grid path { stroke: var(--line); stroke-width: 2; }
        .plot text { font-size: 30px; fill: var(--dim); font-variant-numeric: tabular-nums; }
        .plot text.value { text-anchor: end; }
        .plot text.time { text-anchor: middle; }
        .plot .line { fill: none; stroke: var(--route); stroke-width: 3; stroke-linejoin: round; }
        .plot[data-plot="rate"] .line { stroke: var(--gate); }
        .scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
        table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 15px; min-width: 100%; }
        th, td { padding: 5px 8px; text-align: right; white-space: nowrap; border-bottom: 1px solid var(--line); }
        th[scope="row"], thead th:first-child { text-align: left; }
        thead th { color: var(--dim); font-weight: normal; font-size: 13px; }
        tr.rest { color: var(--dim); }
        td.target { text-align: left; }
        .notes { list-style: none; padding: 0; margin: 0; }
        .notes li { padding: 4px 0; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
        .notes .at { color: var(--dim); font-variant-numeric: tabular-nums; margin-right: 6px; }
        .nodata { color: var(--dim); }
        footer { color: var(--dim); font-size: 12px; margin: 24px 0 8px; overflow-wrap: anywhere; }
        @media (min-width: 700px) { .plot text { font-size: 17px; } .track text { font-size: 16px; } .pin text { font-size: 18px; } }
        @media print { main { max-width: none; } h2 { break-after: avoid; } svg { break-inside: avoid; } }
        """
}
