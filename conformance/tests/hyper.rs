//! Every conformance scenario on the hyper engine.

evident_conformance::conformance_tests!(evident_conformance::engines::hyper());
