//! Every conformance scenario on the isahc engine (HTTP/2 scenarios are
//! skipped, with the reason in the driver).

evident_conformance::conformance_tests!(evident_conformance::engines::isahc());
