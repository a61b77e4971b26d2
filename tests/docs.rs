//! The documents users read say what the code does.

use std::path::Path;

use evident::{RetryPolicy, RetryTable};

fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_design_documents_retry_table_is_what_the_decision_code_prints() {
    let design = read("docs/design.md");
    let begin = "<!-- retry-table:begin -->\n";
    let end = "<!-- retry-table:end -->";
    let start = design
        .find(begin)
        .expect("docs/design.md marks the table's start")
        + begin.len();
    let stop = design[start..]
        .find(end)
        .expect("docs/design.md marks the table's end")
        + start;
    let printed = RetryTable::generate(&RetryPolicy::default()).to_string();
    assert_eq!(
        design[start..stop].trim_end(),
        printed.trim_end(),
        "docs/design.md's retry table is stale: paste the output of \
         `cargo run -p evident-core --example retry-table` between its markers"
    );
}

#[test]
fn the_readme_and_docs_point_at_nothing_outside_the_repository() {
    for doc in [
        "README.md",
        "docs/design.md",
        "docs/adding-an-engine.md",
        "core/docs/adding-an-engine.md",
    ] {
        let text = read(doc);
        for outside in ["../shared", "/work/", "DESIGN.md"] {
            assert!(!text.contains(outside), "{doc} refers to {outside}");
        }
    }
    let readme = read("README.md");
    assert!(
        readme.contains("(docs/design.md)"),
        "the README links the design"
    );
    assert!(
        readme.contains("(docs/adding-an-engine.md)"),
        "the README links the guide"
    );
}
