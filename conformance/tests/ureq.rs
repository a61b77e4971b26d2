//! Every conformance scenario on the ureq engine (HTTP/2 scenarios and the
//! oversized head are skipped, with the reasons in the driver).

evident_conformance::conformance_tests!(evident_conformance::engines::ureq());
