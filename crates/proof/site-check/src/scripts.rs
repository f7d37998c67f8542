//! The two scripts the browser runs in every page it checks: dialogs.js
//! before the page's own, page.js once the page has loaded.

/// The script every page runs once: see page.js.
pub(crate) const SCRIPT: &str = include_str!("page.js");

/// The script every page runs before its own: see dialogs.js.
pub(crate) const BEFORE_PAGE_SCRIPTS: &str = include_str!("dialogs.js");
