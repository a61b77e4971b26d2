//! Every conformance scenario on the reqwest engine.

evident_conformance::conformance_tests!(evident_conformance::engines::reqwest());
