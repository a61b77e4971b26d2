//! Every conformance scenario on the isahc engine (HTTP/2 scenarios are
//! n/a, with the reason in the driver).

evident_conformance::conformance_tests!(evident_conformance::engines::isahc());
