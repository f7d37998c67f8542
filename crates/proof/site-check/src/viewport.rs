//! The phone the site is checked at: its viewport in CSS px, device pixel
//! ratio 1.

pub(crate) const PHONE_WIDTH: u32 = 390;
pub(crate) const PHONE_HEIGHT: u32 = 844;
