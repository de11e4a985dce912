extension CoverageReport {
    /// The stylesheet of every HTML coverage report (policies' and coaching rules'): numbered
    /// source lines, a count column, covered lines green and never-reached ones red, notes in a
    /// smaller type. Long source lines and notes wrap inside their own cells, so nothing is cut
    /// off at the right edge of a 1280 px window. Sub-expression marks (policy pages) carry their
    /// state in more than colour: never-evaluated ones are struck through. One copy, so the two
    /// reports look alike.
    package static let stylesheet = """
    body { font-family: -apple-system, "Segoe UI", sans-serif; margin: 1.5em; color: #1a1a1a; }
    h1 { font-size: 1.4em; overflow-wrap: anywhere; }
    table { border-collapse: collapse; font-family: ui-monospace, Menlo, monospace; font-size: 13px; width: 100%; }
    td { padding: 0 .6em; vertical-align: top; }
    td.n { color: #666; text-align: right; width: 3em; }
    td.c { text-align: right; width: 3em; }
    td.s { white-space: pre-wrap; overflow-wrap: anywhere; }
    tr.hit td.c { background: #d4f4d4; }
    tr.miss td.c, tr.miss td.s { background: #f8d0d0; }
    td.a { color: #444; font-family: -apple-system, "Segoe UI", sans-serif; font-size: 12px; white-space: normal; overflow-wrap: anywhere; width: 30%; }
    .x.hit { border-bottom: 1px solid #6a9f6a; }
    .x.never { background: #ffd6d6; color: #8a0000; text-decoration: line-through wavy #b00000; }
    tr.d td.s { white-space: normal; font-family: -apple-system, "Segoe UI", sans-serif; padding-bottom: .4em; }
    details summary { cursor: pointer; color: #333; }
    details ol { margin: .3em 0; padding-left: 2em; }
    details li { margin: .15em 0; }
    details li code { white-space: pre-wrap; overflow-wrap: anywhere; }
    details li.never { color: #8a0000; }
    details li.never code { text-decoration: line-through; }
    .r { color: #555; }
    .legend { font-size: .9em; color: #333; }

    """
}
