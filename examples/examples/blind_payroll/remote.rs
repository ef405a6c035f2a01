//! The services over the network, simulated: the tax authority's code lookup and the bank's payments.

use std::collections::BTreeMap;
use std::time::Duration;

/// The tax authority: tax codes by national insurance number.
pub struct TaxAuthority {
    codes: BTreeMap<&'static str, &'static str>,
    latency: Duration,
}

/// The authority, with the codes it holds for the firm's people.
impl Default for TaxAuthority {
    fn default() -> Self {
        TaxAuthority {
            codes: BTreeMap::from([
                ("AB123456A", "1257L"),
                ("BO654321B", "1100L"),
                ("CM111222C", "1257L"),
                ("DK777888D", "K120"),
            ]),
            latency: Duration::from_millis(15),
        }
    }
}

impl TaxAuthority {
    /// The code the authority holds for `ni`.
    ///
    /// # Errors
    ///
    /// When it holds no record of `ni`.
    pub async fn code_for(&self, ni: &str) -> Result<String, String> {
        tokio::time::sleep(self.latency).await;
        self.codes
            .get(ni)
            .map(|code| (*code).to_owned())
            .ok_or_else(|| format!("no record of {ni}"))
    }
}

/// The firm's bank: pays a batch one payment at a time and confirms each with a reference.
pub struct Bank {
    latency: Duration,
}

impl Default for Bank {
    fn default() -> Self {
        Bank {
            latency: Duration::from_millis(20),
        }
    }
}

impl Bank {
    /// Pays `cents` into `account`; the payment's reference.
    ///
    /// # Errors
    ///
    /// When no account is given, or there is nothing to pay.
    pub async fn pay(&self, account: &str, cents: u64) -> Result<String, String> {
        tokio::time::sleep(self.latency).await;
        if account.trim().is_empty() {
            return Err("no account on file".to_owned());
        }
        if cents == 0 {
            return Err("nothing to pay".to_owned());
        }
        let tail: String = account
            .chars()
            .rev()
            .take(4)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        Ok(format!("BACS-{tail}-{cents}"))
    }
}
