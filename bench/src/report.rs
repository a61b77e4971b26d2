//! The benchmark's tables, in Markdown.

use std::fmt::Write;

use crate::clients::{Declaration, Role};
use crate::fleet::FleetReport;
use crate::outage::OutageResult;
use crate::run::Case;

/// One table per case: throughput, paired ratio with its spread, CPU,
/// allocations and failures per client; then, per family, what evident's
/// client adds over its engine.
pub fn cases(cases: &[Case]) -> String {
    let mut out = String::new();
    for case in cases {
        let _ = writeln!(
            out,
            "### {}, {}, {} in flight\n",
            case.protocol, case.workload, case.in_flight
        );
        out.push_str(
            "| client | req/s | ratio vs bare: median (min–max) | CPU µs/call | allocs/call | KB alloc/call | failed |\n\
             |---|---:|---|---:|---:|---:|---:|\n",
        );
        let mut notes = Vec::new();
        for family in &case.families {
            for row in &family.rows {
                let (median, lo, hi) = row.ratio();
                let ratio = if row.role == Role::Bare {
                    "1 (baseline)".to_string()
                } else {
                    format!("{median:.3} ({lo:.3}–{hi:.3})")
                };
                let failed = row.calls() - row.succeeded();
                let failed = match row.first_failure() {
                    Some(first) if failed > 0 => format!("{failed}: {}", truncate(first, 60)),
                    _ => failed.to_string(),
                };
                let _ = writeln!(
                    out,
                    "| {} | {:.0} | {} | {:.1} | {:.1} | {:.1} | {} |",
                    row.name,
                    row.throughput(),
                    ratio,
                    row.cpu_us_per_call(),
                    row.allocations_per_call(),
                    row.bytes_per_call() / 1024.0,
                    failed
                );
            }
            let engine = family.rows.iter().find(|r| r.role == Role::Engine);
            let client = family.rows.iter().find(|r| r.role == Role::Client);
            let reference = family.rows.iter().find(|r| r.role == Role::Reference);
            if let Some(note) = &family.note {
                let mut note = format!("{}: {note}", family.name);
                // The reference row is the bare engine with evident's
                // engine's setting: how much of the engine's gap that
                // setting alone explains.
                if let (Some(reference), Some(engine)) = (reference, engine) {
                    let paired: Vec<f64> = engine
                        .ratios
                        .iter()
                        .zip(&reference.ratios)
                        .map(|(e, r)| e / r)
                        .collect();
                    let _ = write!(
                        note,
                        ". \"{}\" runs at {:.3} of bare, the engine alone at {:.3} of it (paired medians)",
                        reference.name,
                        reference.ratio().0,
                        crate::run::median(paired),
                    );
                }
                notes.push(note);
            }
            if let (Some(engine), Some(client)) = (engine, client) {
                let paired: Vec<f64> = client
                    .ratios
                    .iter()
                    .zip(&engine.ratios)
                    .map(|(c, e)| c / e)
                    .collect();
                notes.push(format!(
                    "{}: client over engine {:.3} (paired median), {:+.1} µs CPU/call, {:+.1} allocs/call",
                    family.name,
                    crate::run::median(paired),
                    client.cpu_us_per_call() - engine.cpu_us_per_call(),
                    client.allocations_per_call() - engine.allocations_per_call(),
                ));
            }
        }
        for note in notes {
            let _ = writeln!(out, "\n* {note}");
        }
        out.push('\n');
    }
    out
}

/// Issue 13's speed targets: the evident client at this share of its bare
/// engine's throughput or more.
pub const CLIENT_RATIO_TARGET: f64 = 0.95;
/// Issue 13: each engine alone at this share of its bare engine or more.
pub const ENGINE_RATIO_TARGET: f64 = 0.98;
/// Issue 13: the client layer adds at most this much CPU per call, in µs.
pub const CLIENT_LAYER_CPU_TARGET_US: f64 = 1.5;

/// One line per case and engine: the paired ratios and the client layer's
/// CPU against issue 13's targets, each marked met or missed. Ratios are
/// medians of paired rounds; on a busy machine read them with the null
/// row's spread beside them.
pub fn targets(cases: &[Case]) -> String {
    let mut out = String::from(
        "### Targets\n\n\
         | case | engine | engine alone / bare (≥ 0.98) | client / bare (≥ 0.95) | client layer CPU µs/call (≤ 1.5) | null row spread |\n\
         |---|---|---|---|---|---|\n",
    );
    let mark = |met: bool| if met { "met" } else { "missed" };
    for case in cases {
        for family in &case.families {
            let find = |role| family.rows.iter().find(|r| r.role == role);
            let (Some(engine), Some(client)) = (find(Role::Engine), find(Role::Client)) else {
                continue;
            };
            let engine_ratio = engine.ratio().0;
            let client_ratio = client.ratio().0;
            let layer = client.cpu_us_per_call() - engine.cpu_us_per_call();
            let failed = client.calls() - client.succeeded();
            // A failed call (a local rejection, say) costs next to nothing,
            // so neither the client's ratio nor its CPU says anything then.
            let (client_cell, layer_cell) = if failed > 0 {
                let cell = format!("missed: {failed} calls failed");
                (cell.clone(), cell)
            } else {
                (
                    format!(
                        "{client_ratio:.3} {}",
                        mark(client_ratio >= CLIENT_RATIO_TARGET)
                    ),
                    format!("{layer:+.1} {}", mark(layer <= CLIENT_LAYER_CPU_TARGET_US)),
                )
            };
            let null = find(Role::Null).map_or("–".to_string(), |n| {
                let (_, lo, hi) = n.ratio();
                format!("{lo:.2}–{hi:.2}")
            });
            let _ = writeln!(
                out,
                "| {}, {}, {} in flight | {} | {:.3} {} | {} | {} | {} |",
                case.protocol,
                case.workload,
                case.in_flight,
                family.name,
                engine_ratio,
                mark(engine_ratio >= ENGINE_RATIO_TARGET),
                client_cell,
                layer_cell,
                null,
            );
        }
    }
    out
}

/// The outage table: receipts and time per call for every client.
pub fn outages(results: &[OutageResult], budget_note: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "### Outage amplification (POST 16 KiB, HTTP/1.1; {budget_note})\n"
    );
    out.push_str(
        "| server | declared | client | receipts/call | max receipts of one call | attempts/call | rejected locally | ms/call | answered 2xx |\n\
         |---|---|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in results {
        let attempts = r.sample.attempts.map_or("–".to_string(), |a| {
            format!("{:.2}", a as f64 / r.sample.calls.max(1) as f64)
        });
        let declared = match r.declaration {
            Declaration::Nothing => "nothing",
            Declaration::Idempotent => "idempotent",
            Declaration::Key => "key",
        };
        let _ = writeln!(
            out,
            "| {:?} | {} | {} | {:.2} | {} | {} | {} | {:.1} | {} |",
            r.behaviour,
            declared,
            r.name,
            r.receipts_per_call(),
            r.max_receipts_per_call,
            attempts,
            r.sample.rejections,
            r.time_per_call().as_secs_f64() * 1e3,
            r.sample.succeeded,
        );
    }
    out
}

/// The fleet table: each variant's latency, and what it adds over its
/// local counterpart in latency and CPU, with its Redis round trips per
/// call, beside issue 20's goals, each marked met or missed.
pub fn fleet(report: &FleetReport) -> String {
    let micros = |d: std::time::Duration| d.as_secs_f64() * 1e6;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "### A fleet of clients: what sharing through Redis adds to a call\n\n\
         {} paired rounds × {} calls per variant, one at a time, {:?} apart, on loopback; \
         redis-server {}\n",
        report.plan.rounds,
        report.plan.calls,
        crate::fleet::PACE,
        report.server
    );
    out.push_str(
        "| what | p50 | p99 | added p50 | added p99 | added CPU per call | round trips per call | goal |\n\
         |---|---:|---:|---:|---:|---:|---:|---|\n",
    );
    let mark = |met: bool| if met { "met" } else { "missed" };
    for result in &report.results {
        let base = &report.results[result.baseline];
        let added = |p: f64| result.percentile(p).saturating_sub(base.percentile(p));
        let mut goals = Vec::new();
        if let Some(most) = result.goal.round_trips {
            let per_call = result.round_trips_per_call();
            goals.push(format!("≤ {most} trips: {}", mark(per_call <= most)));
        }
        if let Some(most) = result.goal.added_p99 {
            goals.push(format!(
                "≤ {:.0} µs p99: {}",
                micros(most),
                mark(added(0.99) <= most)
            ));
        }
        let goal = if std::ptr::eq(result, base) {
            "baseline".to_string()
        } else if goals.is_empty() {
            "–".to_string()
        } else {
            goals.join(", ")
        };
        let _ = writeln!(
            out,
            "| {} | {:.1} µs | {:.1} µs | {:.1} µs | {:.1} µs | {:.2} µs | {:.4} | {} |",
            result.name,
            micros(result.percentile(0.50)),
            micros(result.percentile(0.99)),
            micros(added(0.50)),
            micros(added(0.99)),
            result.cpu_us_per_call() - base.cpu_us_per_call(),
            result.round_trips_per_call(),
            goal,
        );
    }
    let metrics = &report.metrics;
    let _ = writeln!(
        out,
        "\nfleet: {} at the end; {} round trips, {} deadline overruns, {} errors, {} fallbacks",
        if report.shared_at_end {
            "shared"
        } else {
            "local (the shared rows include local calls)"
        },
        metrics.round_trips,
        metrics.deadline_overruns,
        metrics.errors,
        metrics.fallbacks,
    );
    out
}

fn truncate(s: &str, max: usize) -> String {
    let s = s.replace('|', "/").replace('\n', " ");
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}
