//! evident-core (under construction).
