//! Collecting every problem of one macro call, so the user sees them all in one build, in the order
//! of the keys they concern.

use proc_macro2::{Span, TokenStream};

/// Accumulates [`syn::Error`]s, each tagged with the position of what it concerns (the index of the
/// attribute key, or `usize::MAX` for the item and for missing keys); they come out sorted by it.
pub(crate) struct Errors {
    list: Vec<(usize, syn::Error)>,
    position: usize,
}

impl Default for Errors {
    fn default() -> Self {
        Errors {
            list: Vec::new(),
            position: usize::MAX,
        }
    }
}

impl Errors {
    /// The position the next errors concern.
    pub(crate) fn concern(&mut self, position: usize) {
        self.position = position;
    }

    /// Records `error` (which may itself hold several messages).
    pub(crate) fn push(&mut self, error: syn::Error) {
        self.list.push((self.position, error));
    }

    /// Records a message at `span`.
    pub(crate) fn at(&mut self, span: Span, message: impl std::fmt::Display) {
        self.push(syn::Error::new(span, message));
    }

    /// Records the error of `result`, if any, and passes its value on.
    pub(crate) fn ok<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(error) => {
                self.push(error);
                None
            }
        }
    }

    /// `compile_error!` invocations for every recorded problem, in position order (empty when there
    /// is none).
    pub(crate) fn to_compile_errors(&self) -> TokenStream {
        let mut list: Vec<&(usize, syn::Error)> = self.list.iter().collect();
        list.sort_by_key(|(position, _)| *position);
        list.into_iter()
            .map(|(_, error)| error.to_compile_error())
            .collect()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}
