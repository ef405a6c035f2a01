//! The parcel desk's model and messages.

use ranvier::Messages;

/// The parcel being sent.
#[derive(Clone, Debug, PartialEq)]
pub struct Parcel {
    /// Its weight, in grams.
    pub grams: u64,
    /// The value declared for insurance, in cents.
    pub declared: u64,
    /// What insurance covers, in cents (0: uninsured).
    pub insured: u64,
    /// Labels to print.
    pub copies: u64,
    /// Express delivery.
    pub express: bool,
    /// Booked for collection.
    pub booked: bool,
    /// Labels printed so far.
    pub printed: u64,
    /// Whether the courier was told to collect it.
    pub courier_told: bool,
}

impl Default for Parcel {
    fn default() -> Self {
        Parcel {
            grams: 0,
            declared: 0,
            insured: 0,
            copies: 1,
            express: false,
            booked: false,
            printed: 0,
            courier_told: false,
        }
    }
}

/// The desk's messages.
#[derive(Clone, Debug, PartialEq, Messages)]
#[message(rename_all = "camelCase")]
pub enum Msg {
    /// Weighs the parcel.
    Weigh {
        /// Grams.
        grams: u64,
    },
    /// Declares its value.
    Declare {
        /// Cents.
        cents: u64,
    },
    /// Insures it up to the declared value.
    Insure,
    /// Sets how many labels to print.
    SetCopies {
        /// Labels.
        copies: u64,
    },
    /// Chooses express delivery, or not.
    SetExpress {
        /// Express or standard.
        express: bool,
    },
    /// Books the parcel for collection: prints its labels and tells the courier (commands).
    Book,
    /// Prints the labels (a command of `Book`).
    PrintLabels,
    /// Tells the courier to collect the parcel (a command of `Book`).
    NotifyCourier,
}

/// What sending the parcel costs, and how many days it takes.
#[derive(Clone, Debug)]
pub struct Quote {
    /// The price, in cents.
    pub cents: u64,
    /// Working days to deliver.
    pub days: u64,
}

/// Two quotes are the same offer.
impl PartialEq for Quote {
    fn eq(&self, other: &Self) -> bool {
        // FAULT(parcel_quote_equality): compares the price only, so a faster quote at the same price is "equal"
        self.cents == other.cents
    }
}
