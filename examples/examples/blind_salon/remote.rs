//! The two services the salon calls over the network, simulated: the product supplier's price feed and the online
//! booking site's feed of requests. Each answers after a short delay (`BLIND_SALON_REMOTE_MS`, 20 ms by default).

use std::time::Duration;

/// How long a simulated service takes to answer.
fn delay() -> Duration {
    let ms = std::env::var("BLIND_SALON_REMOTE_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .unwrap_or(20);
    Duration::from_millis(ms)
}

/// The supplier's trade price list.
#[derive(Debug)]
pub struct Supplier {
    prices: Vec<(&'static str, u32)>,
}

impl Default for Supplier {
    fn default() -> Self {
        Supplier {
            prices: vec![
                ("shampoo", 600),
                ("conditioner", 650),
                ("serum", 1100),
                ("spray", 450),
            ],
        }
    }
}

impl Supplier {
    /// Today's trade price of each of `products`, in pence (a product the supplier does not carry is left out).
    ///
    /// # Errors
    ///
    /// None today; the real feed can fail.
    pub async fn prices(&self, products: Vec<String>) -> Result<Vec<(String, u32)>, String> {
        tokio::time::sleep(delay()).await;
        Ok(products
            .into_iter()
            .filter_map(|name| {
                self.prices
                    .iter()
                    .find(|(p, _)| *p == name)
                    .map(|(_, price)| (name, *price))
            })
            .collect())
    }
}

/// A request made on the online booking site.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub client: String,
    pub stylist: String,
    pub service: String,
    pub length: String,
    pub hour: u32,
}

/// The online booking site.
#[derive(Debug, Default)]
pub struct BookingFeed;

impl BookingFeed {
    /// The requests made online for `day`.
    ///
    /// # Errors
    ///
    /// None today; the real feed can fail.
    pub async fn requests(&self, day: u32) -> Result<Vec<Request>, String> {
        tokio::time::sleep(delay()).await;
        let request = |client: &str, stylist: &str, service: &str, length: &str, hour| Request {
            client: client.to_owned(),
            stylist: stylist.to_owned(),
            service: service.to_owned(),
            length: length.to_owned(),
            hour,
        };
        let _ = day;
        Ok(vec![
            request("Maya", "Kim", "cut", "medium", 10),
            request("Leo", "Sam", "colour", "long", 14),
            request("Ivy", "Kim", "blow-dry", "short", 18),
        ])
    }
}
