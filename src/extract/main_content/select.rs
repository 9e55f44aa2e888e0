//! Which blocks to keep, given the model's score of each: the sequence of
//! keep/drop that gains the most, where a kept block gains its words times
//! how far its probability of being main content is above a threshold (a
//! dropped block gains nothing), and every switch between keeping and
//! dropping costs a fixed amount, as do entering the first kept region
//! and leaving the last: the page around the main content is dropped, so
//! a lone block at the page's edge is not kept for want of a switch. A
//! short block between kept ones (a heading, a one-line paragraph, a
//! caption) is kept unless the model is sure it is not content: dropping
//! it would cost two switches. One pass forward, one back: linear in the
//! blocks (the Viterbi algorithm with two states).

/// The numbers of the selection (trained with the model: `model.rs`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Params {
    /// The probability above which a block's words count for keeping it.
    pub(crate) threshold: f32,
    /// What a switch between kept and dropped blocks costs, in words.
    pub(crate) switch_cost: f32,
    /// Words added to every block's, so that an empty one still weighs.
    pub(crate) words_bias: f32,
}

/// Which of the blocks to keep, from their scores (log-odds) and words.
pub(crate) fn keep(scores: &[f32], words: &[u32], params: Params) -> Vec<bool> {
    let n = scores.len();
    if n == 0 {
        return Vec::new();
    }
    // Each block's gain first: the exponential is a call, around which
    // the pass below would keep its sums in memory.
    let gains: Vec<f32> = scores
        .iter()
        .zip(words)
        .map(|(&score, &words)| {
            let p = 1.0 / (1.0 + (-score).exp());
            (p - params.threshold) * (words as f32 + params.words_bias)
        })
        .collect();
    // best[i][s]: the most gained by blocks 0..=i with block i in state s
    // (0 dropped, 1 kept); from[i][s]: the state of block i - 1 on that
    // path.
    let switch = params.switch_cost;
    let mut from: Vec<[u8; 2]> = vec![[0, 0]; n];
    let mut best = [0.0f32, gains[0] - switch];
    for (from, &g) in from.iter_mut().zip(&gains).skip(1) {
        let drop_stay = best[0];
        let drop_switch = best[1] - switch;
        let keep_stay = best[1] + g;
        let keep_switch = best[0] - switch + g;
        let (d, df) = if drop_stay >= drop_switch {
            (drop_stay, 0)
        } else {
            (drop_switch, 1)
        };
        let (k, kf) = if keep_stay >= keep_switch {
            (keep_stay, 1)
        } else {
            (keep_switch, 0)
        };
        best = [d, k];
        *from = [df, kf];
    }
    let mut state = usize::from(best[1] - switch > best[0]);
    let mut keep = vec![false; n];
    for i in (0..n).rev() {
        keep[i] = state == 1;
        state = usize::from(from[i][state]);
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_block_inside_the_region_stays() {
        // Boilerplate, article, a heading the model doubts, article,
        // boilerplate.
        let params = Params {
            threshold: 0.5,
            switch_cost: 3.0,
            words_bias: 2.0,
        };
        let scores = [-4.0, 4.0, -0.5, 4.0, -4.0];
        let words = [5, 80, 3, 120, 10];
        let kept = keep(&scores, &words, params);
        assert_eq!(kept, [false, true, true, true, false]);
        // A longer block the model is sure is not content goes.
        let scores = [-4.0, 4.0, -9.0, 4.0, -4.0];
        let words = [5, 80, 20, 120, 10];
        let kept = keep(&scores, &words, params);
        assert_eq!(kept, [false, true, false, true, false]);
        assert!(keep(&[], &[], params).is_empty());
    }
}
