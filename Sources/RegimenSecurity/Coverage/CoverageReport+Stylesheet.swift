extension CoverageReport {
    /// The stylesheet of every HTML coverage report (policies' and coaching rules'): numbered
    /// source lines, a count column, covered lines green and never-reached ones red, notes in a
    /// smaller type. One copy, so the two reports look alike.
    package static let stylesheet = """
    body { font-family: -apple-system, sans-serif; margin: 1.5em; }
    table { border-collapse: collapse; font-family: ui-monospace, monospace; font-size: 13px; }
    td { padding: 0 .6em; vertical-align: top; white-space: pre; }
    td.n { color: #888; text-align: right; }
    td.c { text-align: right; min-width: 3em; }
    tr.hit td.c { background: #d4f4d4; }
    tr.miss td.c, tr.miss td.s { background: #f8d0d0; }
    td.a { color: #555; font-family: -apple-system, sans-serif; font-size: 12px; }

    """
}
