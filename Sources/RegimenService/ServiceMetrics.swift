import Foundation
import Prometheus
import Synchronization

/// The service's Prometheus metrics: requests and latency per route, decisions by outcome,
/// reloads by outcome, and an info gauge carrying the serving revision as a label.
final class ServiceMetrics: Sendable {
    /// The registry `/metrics` prints; one per service, so tests may run several at once.
    let registry = PrometheusCollectorRegistry()
    /// Latency buckets from 100 µs to 10 s: authorize answers in well under a millisecond, a
    /// plan in a few, and 10 s is the default time budget.
    private static let buckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5),
        .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .seconds(2.5), .seconds(10),
    ]
    private let info: Mutex<(gauge: Gauge, revision: String)?> = Mutex(nil)

    init() {}

    func request(route: String, method: String, status: Int, duration: Duration) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(namespace: "regimen", metricName: "http_requests", unitName: "total", helpText: "HTTP requests by route, method and status."),
            labels: [("route", route), ("method", method), ("status", String(status))]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(namespace: "regimen", metricName: "http_request_duration", unitName: "seconds", helpText: "HTTP request latency by route."),
            labels: [("route", route), ("method", method)], buckets: Self.buckets
        ).record(duration)
    }

    func decisions(allowed: Int, denied: Int) {
        let descriptor = MetricNameDescriptor(namespace: "regimen", metricName: "decisions", unitName: "total", helpText: "Policy decisions by outcome.")
        if allowed > 0 { registry.makeCounter(descriptor: descriptor, labels: [("outcome", "allow")]).increment(by: Int64(allowed)) }
        if denied > 0 { registry.makeCounter(descriptor: descriptor, labels: [("outcome", "deny")]).increment(by: Int64(denied)) }
    }

    func reloaded(success: Bool, revision: String) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(namespace: "regimen", metricName: "reloads", unitName: "total", helpText: "Rule reloads by outcome."),
            labels: [("outcome", success ? "success" : "failure")]
        ).increment()
        serving(revision: revision)
    }

    /// Points the info gauge at `revision`: the gauge of the previous revision is removed, so
    /// exactly one `regimen_rules_info` series is 1.
    func serving(revision: String) {
        info.withLock { current in
            if current?.revision == revision { return }
            if let previous = current?.gauge { registry.unregisterGauge(previous) }
            let gauge = registry.makeGauge(
                descriptor: MetricNameDescriptor(namespace: "regimen", metricName: "rules", unitName: "info", helpText: "The serving rules revision (always 1)."),
                labels: [("revision", revision)])
            gauge.set(Double(1))
            current = (gauge, revision)
        }
    }

    /// The Prometheus text exposition.
    func exposition() -> String { registry.emitToString() }
}
