//! The harbour desk's model: berths, vessels and the containers they land in the yard, the port's tariff, and the
//! messages the desk takes.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// A quay berth.
#[derive(Clone, Debug, PartialEq)]
pub struct Berth {
    /// The berth's name ("B1").
    pub id: String,
    /// How long a ship it takes, in metres.
    pub length_m: u32,
    /// The water alongside at chart datum, in decimetres.
    pub depth_dm: u32,
}

/// A ship calling at the port.
#[derive(Clone, Debug, PartialEq)]
pub struct Vessel {
    /// The radio call sign, unique per ship.
    pub call_sign: String,
    /// The ship's name.
    pub name: String,
    /// Length overall, in metres.
    pub length_m: u32,
    /// Draft, in decimetres.
    pub draft_dm: u32,
    /// The hour it is expected at the pilot station.
    pub eta: u32,
    /// The berth it was given, once it was (kept after it leaves, for the record).
    pub berth: Option<String>,
    /// The hour it made fast alongside.
    pub arrived: Option<u32>,
    /// The hour it left.
    pub departed: Option<u32>,
}

impl Vessel {
    /// Whether the ship is at its berth now.
    pub fn alongside(&self) -> bool {
        self.arrived.is_some() && self.departed.is_none()
    }
}

/// A container landed from a ship into the yard.
#[derive(Clone, Debug, PartialEq)]
pub struct Container {
    /// The container number ("MSCU1234565").
    pub id: String,
    /// The call sign of the ship that landed it.
    pub vessel: String,
    /// Gross mass, in kilograms.
    pub weight_kg: u32,
    /// A refrigerated box, which needs a power plug in the yard.
    pub reefer: bool,
    /// The hour it was landed.
    pub landed: u32,
    /// The hour it was plugged in, for a reefer.
    pub plugged: Option<u32>,
    /// The hour of the truck slot booked to take it out.
    pub slot: Option<u32>,
}

/// One bill for port dues.
#[derive(Clone, Debug, PartialEq)]
pub struct Invoice {
    /// The invoice number, from 1.
    pub number: u32,
    /// The ship billed.
    pub call_sign: String,
    /// The amount, in cents.
    pub cents: u64,
}

/// What the port charges.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Tariff {
    /// Port dues per metre of ship length per hour alongside, in cents.
    pub cents_per_metre_hour: u64,
    /// The fewest hours a call is charged for.
    pub min_hours: u32,
    /// Hours a container stays in the yard before storage is charged.
    pub free_storage_hours: u32,
    /// Storage per container per hour after the free hours, in cents.
    pub storage_cents_per_hour: u64,
    /// Power for a plugged-in reefer per hour, in cents.
    pub reefer_cents_per_hour: u64,
}

impl Default for Tariff {
    fn default() -> Tariff {
        // the harbour master's tariff sheet of this year
        Tariff {
            cents_per_metre_hour: 9,
            min_hours: 4,
            free_storage_hours: 48,
            storage_cents_per_hour: 40,
            reefer_cents_per_hour: 150,
        }
    }
}

/// The whole desk.
#[derive(Clone, Debug, PartialEq)]
pub struct Port {
    /// The port's clock, in hours since the desk opened.
    pub hour: u32,
    /// The quay, in order along it.
    pub berths: Vec<Berth>,
    /// Every ship announced, in the order announced.
    pub vessels: Vec<Vessel>,
    /// The containers in the yard, in the order landed.
    pub containers: Vec<Container>,
    /// Bills sent, oldest first.
    pub invoices: Vec<Invoice>,
    /// Notices to ships and agents, oldest first.
    pub notices: Vec<String>,
    /// What the port charges.
    pub tariff: Tariff,
    /// The number the next invoice gets.
    pub next_invoice: u32,
}

impl Default for Port {
    fn default() -> Port {
        Port {
            hour: 0,
            berths: Vec::new(),
            vessels: Vec::new(),
            containers: Vec::new(),
            invoices: Vec::new(),
            notices: Vec::new(),
            tariff: Tariff::default(),
            next_invoice: 1,
        }
    }
}

impl Port {
    /// The ship with `call_sign`.
    pub fn vessel(&self, call_sign: &str) -> Option<&Vessel> {
        self.vessels.iter().find(|v| v.call_sign == call_sign)
    }

    /// The berth named `id`.
    pub fn berth(&self, id: &str) -> Option<&Berth> {
        self.berths.iter().find(|b| b.id == id)
    }

    /// Whether a ship that has not left holds berth `id` (alongside, or given it and on its way).
    pub fn berth_taken(&self, id: &str) -> bool {
        self.vessels
            .iter()
            .any(|v| v.departed.is_none() && v.berth.as_deref() == Some(id))
    }
}

/// The quay when the desk opens: three berths, the last one dredged deep for the big ships, and the coaster
/// `LAKU7` made fast at `B1` since hour 0.
pub fn opening_quay() -> Vec<Msg> {
    let berths = [("B1", 180, 95), ("B2", 240, 110), ("B3", 320, 150)]
        .into_iter()
        .map(|(id, length_m, depth_dm)| Msg::AddBerth {
            id: id.to_owned(),
            length_m,
            depth_dm,
        });
    let coaster = [
        Msg::Announce {
            call_sign: "LAKU7".to_owned(),
            name: "Nordic Tern".to_owned(),
            length_m: 150,
            draft_dm: 80,
            eta: 0,
        },
        Msg::Assign {
            call_sign: "LAKU7".to_owned(),
            berth: "B1".to_owned(),
        },
        Msg::Arrive {
            call_sign: "LAKU7".to_owned(),
        },
    ];
    berths.chain(coaster).collect()
}

/// What the desk takes.
#[derive(Debug, Messages)]
#[message(rename_all = "camelCase")]
pub enum Msg {
    /// Adds a berth to the quay.
    AddBerth {
        /// Its name.
        id: String,
        /// Metres.
        #[message(range(min = 1))]
        length_m: u32,
        /// Decimetres of water.
        #[message(range(min = 1))]
        depth_dm: u32,
    },
    /// A ship's agent announces a call.
    Announce {
        /// The call sign.
        call_sign: String,
        /// The ship's name.
        name: String,
        /// Metres.
        #[message(range(min = 1))]
        length_m: u32,
        /// Decimetres.
        #[message(range(min = 1))]
        draft_dm: u32,
        /// The hour expected.
        eta: u32,
    },
    /// Gives a berth to an announced ship.
    Assign {
        /// The ship.
        call_sign: String,
        /// The berth.
        berth: String,
    },
    /// The ship made fast at its berth now.
    Arrive {
        /// The ship.
        call_sign: String,
    },
    /// The ship left its berth now: it is billed, and the berth is free.
    Depart {
        /// The ship.
        call_sign: String,
    },
    /// A ship alongside landed a container into the yard.
    Land {
        /// The container number.
        container: String,
        /// The ship.
        call_sign: String,
        /// Kilograms.
        #[message(range(min = 1))]
        weight_kg: u32,
        /// A refrigerated box.
        reefer: bool,
    },
    /// A reefer in the yard was plugged in now.
    Plug {
        /// The container number.
        container: String,
    },
    /// A haulier booked a truck slot to take a container out.
    Book {
        /// The container number.
        container: String,
        /// The slot's hour.
        hour: u32,
    },
    /// A truck took a container out through the gate.
    GateOut {
        /// The container number.
        container: String,
    },
    /// Moves the clock on.
    Advance {
        /// Hours, at least 1.
        #[message(range(min = 1))]
        hours: u32,
    },
    /// Bills a ship for its call (sent by the desk itself when the ship departs).
    #[message(skip)]
    Bill {
        /// The ship.
        call_sign: String,
        /// Cents.
        cents: u64,
    },
    /// Tells the ships and agents `text` (sent by the desk itself).
    #[message(skip)]
    Notify {
        /// What to tell.
        text: String,
    },
}

/// The tariff as it was first typed in.
pub mod slipped {
    use super::Tariff;

    /// The first tariff sheet.
    pub struct FirstTariff(pub Tariff);

    impl Default for FirstTariff {
        fn default() -> FirstTariff {
            FirstTariff(Tariff {
                cents_per_metre_hour: 9,
                min_hours: 4,
                free_storage_hours: 48,
                // BUG(tariff_default)
                storage_cents_per_hour: 150,
                reefer_cents_per_hour: 40,
            })
        }
    }
}
