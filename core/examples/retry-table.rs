//! Prints the retry table: (evidence × idempotency) and (answered status ×
//! idempotency), each cell computed by calling the decision code.
//!
//! ```text
//! cargo run -p evident-core --example retry-table
//! ```

use evident_core::{RetryPolicy, RetryTable};

fn main() {
    let policy = RetryPolicy::default();
    print!("{}", RetryTable::generate(&policy));
}
