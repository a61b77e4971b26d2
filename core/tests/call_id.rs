//! Every Observer callback and every span of a call carry its call id, so
//! concurrent calls can be told apart.

use std::sync::{Arc, Mutex};

use evident_core::client::{Body, CallOptions, ClientBuilder};
use evident_core::observe::{AttemptRecord, CallInfo, Observer};
use evident_core::resilience::PipelineConfig;
use evident_core::testing::{Reached, ScriptedEngine, Step};
use evident_core::{EngineSignal, RetryPolicy};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing_subscriber::layer::{Context, SubscriberExt};

#[derive(Default)]
struct Seen {
    attempts: Mutex<Vec<u64>>,
    ends: Mutex<Vec<(u64, usize)>>,
}

impl Observer for Seen {
    fn on_attempt(&self, call: &CallInfo, _record: &AttemptRecord) {
        self.attempts.lock().unwrap().push(call.call_id);
    }
    fn on_call_end(&self, call: &CallInfo, records: &[AttemptRecord]) {
        self.ends
            .lock()
            .unwrap()
            .push((call.call_id, records.len()));
    }
}

/// Collects `evident.call_id` per span name, whenever it is set.
#[derive(Clone, Default)]
struct SpanIds(Arc<Mutex<Vec<(String, u64)>>>);

struct IdVisitor<'a>(&'a mut Option<u64>);

impl Visit for IdVisitor<'_> {
    fn record_u64(&mut self, field: &Field, value: u64) {
        if field.name() == "evident.call_id" {
            *self.0 = Some(value);
        }
    }
    fn record_debug(&mut self, _field: &Field, _value: &dyn std::fmt::Debug) {}
}

impl<S> tracing_subscriber::Layer<S> for SpanIds
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, _id: &Id, _ctx: Context<'_, S>) {
        let mut found = None;
        attrs.record(&mut IdVisitor(&mut found));
        if let Some(call_id) = found {
            let name = attrs.metadata().name().to_owned();
            self.0.lock().unwrap().push((name, call_id));
        }
    }
    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        let mut found = None;
        values.record(&mut IdVisitor(&mut found));
        if let (Some(call_id), Some(span)) = (found, ctx.span(id)) {
            let name = span.name().to_owned();
            self.0.lock().unwrap().push((name, call_id));
        }
    }
}

#[tokio::test(start_paused = true)]
async fn concurrent_calls_carry_distinct_call_ids_on_every_callback_and_span() {
    let spans = SpanIds::default();
    let _guard =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(spans.clone()));
    let seen = Arc::new(Seen::default());
    let refused = || Step::fail(EngineSignal::ConnectionRefused, Reached::Connect);
    let client = ClientBuilder::new()
        .policy(
            RetryPolicy::builder()
                .max_attempts(2)
                .jitter(0.0)
                .no_budget()
                .build()
                .unwrap(),
        )
        .pipeline(PipelineConfig::disabled())
        .observer(seen.clone())
        .build(ScriptedEngine::new([
            refused(),
            refused(),
            Step::respond(200, "a"),
            Step::respond(200, "b"),
        ]))
        .unwrap();
    let call = |client: evident_core::client::Client<ScriptedEngine>| async move {
        let request = http::Request::get("http://127.0.0.1:8080/")
            .body(Body::Empty)
            .unwrap();
        client.execute(request, CallOptions::new()).await.unwrap();
    };
    tokio::join!(call(client.clone()), call(client.clone()));

    let ends = seen.ends.lock().unwrap().clone();
    assert_eq!(ends.len(), 2);
    let (a, b) = (ends[0].0, ends[1].0);
    assert_ne!(a, b, "two calls, two ids");
    let attempts = seen.attempts.lock().unwrap().clone();
    assert_eq!(attempts.len(), 4);
    for id in [a, b] {
        assert_eq!(attempts.iter().filter(|&&i| i == id).count(), 2);
    }
    let spans = spans.0.lock().unwrap().clone();
    for id in [a, b] {
        assert!(
            spans.contains(&("evident.call".to_owned(), id)),
            "{spans:?}"
        );
        let attempt_spans = spans
            .iter()
            .filter(|(name, i)| name == "evident.attempt" && *i == id)
            .count();
        assert_eq!(attempt_spans, 2, "{spans:?}");
    }
}
