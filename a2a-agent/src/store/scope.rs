//! [`Scope`]: whose tasks and push configs a store call sees (see the
//! [store docs](super#owners)).

use super::tenant_key;

/// Whose tasks and push configs a store call sees: a tenant, and an owner or every owner (see
/// the [module docs](super#owners)).
///
/// ```
/// use a2a_agent::store::Scope;
///
/// let alices = Scope::tenant(Some("acme")).owner("alice");
/// assert_eq!((alices.tenant, alices.owner), (Some("acme"), Some("alice")));
/// let everyones: Scope = None.into(); // the default tenant, every owner
/// assert_eq!(everyones.owner, None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scope<'a> {
    /// The tenant: `None` and `Some("")` are the default one.
    pub tenant: Option<&'a str>,
    /// Only this owner's tasks and configs, and what is created is theirs; `None`: every
    /// owner's, and what is created is the anonymous caller's (`""`).
    pub owner: Option<&'a str>,
}

impl<'a> Scope<'a> {
    /// Every owner's tasks and configs in `tenant`.
    pub fn tenant(tenant: Option<&'a str>) -> Self {
        Scope {
            tenant,
            owner: None,
        }
    }

    /// This scope, narrowed to `owner`'s.
    #[must_use]
    pub fn owner(self, owner: &'a str) -> Self {
        Scope {
            owner: Some(owner),
            ..self
        }
    }

    /// The tenant's key (`""` for the default one).
    pub(in crate::store) fn tenant_key(&self) -> &'a str {
        tenant_key(self.tenant)
    }

    /// The owner a create records.
    pub(in crate::store) fn owner_key(&self) -> &'a str {
        self.owner.unwrap_or("")
    }

    /// Whether a row of `owner` is seen.
    pub(in crate::store) fn sees(&self, owner: &str) -> bool {
        self.owner.is_none_or(|o| o == owner)
    }
}

impl<'a> From<Option<&'a str>> for Scope<'a> {
    /// [`Scope::tenant`]: every owner's.
    fn from(tenant: Option<&'a str>) -> Self {
        Scope::tenant(tenant)
    }
}
