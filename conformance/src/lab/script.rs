//! A script: the behaviour for request N is entry N, the last one repeating.

/// Per-request behaviours of one server.
#[derive(Debug, Clone)]
pub(crate) struct Script<B> {
    steps: Vec<B>,
}

impl<B> Script<B> {
    /// `steps`, or `fallback` alone when `steps` is empty.
    pub(crate) fn new(steps: Vec<B>, fallback: B) -> Self {
        let steps = if steps.is_empty() {
            vec![fallback]
        } else {
            steps
        };
        Self { steps }
    }

    /// The behaviour for the request with this arrival index.
    pub(crate) fn get(&self, index: usize) -> &B {
        let last = self.steps.len() - 1;
        &self.steps[index.min(last)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_step_repeats() {
        let script = Script::new(vec![1, 2], 0);
        assert_eq!([0, 1, 2, 9].map(|i| *script.get(i)), [1, 2, 2, 2]);
    }

    #[test]
    fn an_empty_script_uses_the_fallback() {
        assert_eq!(*Script::new(Vec::new(), 7).get(3), 7);
    }
}
