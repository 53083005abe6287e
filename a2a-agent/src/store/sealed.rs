//! [`SealedPushConfigs`]: push configs whose secrets are stored encrypted.

use std::fmt;
use std::sync::Arc;

use a2a_types::rt::version::ProtocolVersion;
use a2a_types::v1::TaskPushNotificationConfig;
use aws_lc_rs::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_256_GCM, NONCE_LEN};
use aws_lc_rs::rand::{SecureRandom as _, SystemRandom};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

use super::{PushConfigPage, PushConfigStore, Scope, StoreError, StoreFuture};

/// What a sealed value starts with: the scheme and its version.
const SEALED: &str = "a2a-sealed:v1:";

/// A [`PushConfigStore`] that keeps each config's secrets encrypted in the store it wraps: the
/// `token` (sent as `X-A2A-Notification-Token`) and `authentication.credentials` (sent as
/// `Authorization`) are sealed with AES-256-GCM under your key before they are written, and
/// opened when read. The rest of a config (its URL, scheme, ids) is stored in the clear, so that
/// the store can look it up.
///
/// Each sealed value is bound to its place (tenant, task, config id and field): a value copied
/// into another config does not open there. A value that was stored before a key was given (not
/// sealed) is read as it is. A sealed value that does not open (another key, a changed row) is a
/// store error, never a config with a garbled secret.
///
/// Replicas on one store must all be given the same key: the seal is in the row, not in the
/// process. The crypto is aws-lc-rs's, the library the HTTP client's TLS already builds on.
///
/// ```
/// use std::sync::Arc;
/// use a2a_agent::store::{MemoryStore, PushConfigStore, Scope, SealedPushConfigs};
/// use a2a_types::v1::TaskPushNotificationConfig;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let key = [7u8; 32]; // in production: 32 random bytes from your secret manager
/// let plain = Arc::new(MemoryStore::new());
/// let sealed = SealedPushConfigs::new(plain.clone(), &key)?;
/// let config = TaskPushNotificationConfig {
///     url: "https://hooks.example.com/a2a".into(),
///     token: Some("s3cret".into()),
///     ..Default::default()
/// };
/// let stored = sealed.set_push_config(Scope::default(), "t-1", config).await?;
/// let id = stored.id.unwrap();
/// // The wrapped store holds no secret; the sealed view gives it back.
/// let raw = plain.get_push_config(Scope::default(), "t-1", &id).await?.unwrap();
/// assert!(!raw.token.unwrap().contains("s3cret"));
/// let read = sealed.get_push_config(Scope::default(), "t-1", &id).await?.unwrap();
/// assert_eq!(read.token.as_deref(), Some("s3cret"));
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct SealedPushConfigs {
    inner: Arc<dyn PushConfigStore>,
    key: Arc<LessSafeKey>,
}

impl fmt::Debug for SealedPushConfigs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SealedPushConfigs").finish_non_exhaustive()
    }
}

/// A key that is not 32 bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyLengthError(usize);

impl fmt::Display for KeyLengthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a push-config key is 32 bytes (AES-256), not {}", self.0)
    }
}

impl std::error::Error for KeyLengthError {}

/// A sealed value that does not open.
#[derive(Debug)]
struct NotOpened(String);

impl fmt::Display for NotOpened {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the sealed {} does not open with this key (another key, or a changed row)",
            self.0
        )
    }
}

impl std::error::Error for NotOpened {}

impl SealedPushConfigs {
    /// `inner`, its configs' secrets sealed with `key` (32 bytes).
    pub fn new(inner: Arc<dyn PushConfigStore>, key: &[u8]) -> Result<Self, KeyLengthError> {
        let unbound = UnboundKey::new(&AES_256_GCM, key).map_err(|_| KeyLengthError(key.len()))?;
        Ok(SealedPushConfigs {
            inner,
            key: Arc::new(LessSafeKey::new(unbound)),
        })
    }

    /// Where a value lives, as the data its seal authenticates.
    fn place(scope: Scope<'_>, task_id: &str, config_id: &str, field: &str) -> Vec<u8> {
        // Lengths first, so no two places write the same bytes.
        let parts = [scope.tenant_key(), task_id, config_id, field];
        let mut out = Vec::new();
        for part in parts {
            out.extend_from_slice(&(part.len() as u64).to_be_bytes());
            out.extend_from_slice(part.as_bytes());
        }
        out
    }

    fn seal(&self, value: &str, place: &[u8]) -> Result<String, StoreError> {
        let mut nonce = [0u8; NONCE_LEN];
        SystemRandom::new()
            .fill(&mut nonce)
            .map_err(|_| StoreError::Backend("no random nonce for a sealed push config".into()))?;
        let mut data = value.as_bytes().to_vec();
        self.key
            .seal_in_place_append_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(place),
                &mut data,
            )
            .map_err(|_| StoreError::Backend("a push config could not be sealed".into()))?;
        let mut out = nonce.to_vec();
        out.extend_from_slice(&data);
        Ok(format!("{SEALED}{}", URL_SAFE_NO_PAD.encode(out)))
    }

    /// The plain text of a sealed `value`; `None` for one stored before a key was given.
    fn open(&self, value: &str, place: &[u8], what: &str) -> Result<Option<String>, StoreError> {
        let Some(sealed) = value.strip_prefix(SEALED) else {
            return Ok(None);
        };
        let failed = || StoreError::Backend(Box::new(NotOpened(what.to_owned())));
        let bytes = URL_SAFE_NO_PAD.decode(sealed).map_err(|_| failed())?;
        if bytes.len() < NONCE_LEN {
            return Err(failed());
        }
        let (nonce, data) = bytes.split_at(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| failed())?;
        let mut data = data.to_vec();
        let plain = self
            .key
            .open_in_place(nonce, Aad::from(place), &mut data)
            .map_err(|_| failed())?;
        String::from_utf8(plain.to_vec())
            .map(Some)
            .map_err(|_| failed())
    }

    /// `field` sealed (`true`) or opened, in place; on an error it stays as it was.
    fn convert_field(
        &self,
        field: &mut Option<String>,
        place: &[u8],
        what: &str,
        seal: bool,
    ) -> Result<(), StoreError> {
        let Some(value) = field.as_deref() else {
            return Ok(());
        };
        let converted = match seal {
            true => Some(self.seal(value, place)?),
            false => self.open(value, place, what)?,
        };
        if let Some(converted) = converted {
            *field = Some(converted);
        }
        Ok(())
    }

    /// `config`'s secrets sealed (`true`) or opened, in place; a secret that fails stays as it
    /// was.
    fn convert_in_place(
        &self,
        scope: Scope<'_>,
        task_id: &str,
        config: &mut TaskPushNotificationConfig,
        seal: bool,
    ) -> Result<(), StoreError> {
        let id = config.id.as_deref().unwrap_or_default();
        let token_place = Self::place(scope, task_id, id, "token");
        let credentials_place = Self::place(scope, task_id, id, "credentials");
        self.convert_field(&mut config.token, &token_place, "token", seal)?;
        if let Some(auth) = config.authentication.as_mut() {
            let place = &credentials_place;
            self.convert_field(&mut auth.credentials, place, "credentials", seal)?;
        }
        Ok(())
    }

    /// `config` with its secrets sealed (`true`) or opened.
    fn convert(
        &self,
        scope: Scope<'_>,
        task_id: &str,
        mut config: TaskPushNotificationConfig,
        seal: bool,
    ) -> Result<TaskPushNotificationConfig, StoreError> {
        self.convert_in_place(scope, task_id, &mut config, seal)?;
        Ok(config)
    }
}

impl PushConfigStore for SealedPushConfigs {
    fn set_push_config<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config: TaskPushNotificationConfig,
    ) -> StoreFuture<'a, TaskPushNotificationConfig> {
        self.set_push_config_from(scope, task_id, config, ProtocolVersion::V1_0)
    }

    fn set_push_config_from<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        mut config: TaskPushNotificationConfig,
        protocol: ProtocolVersion,
    ) -> StoreFuture<'a, TaskPushNotificationConfig> {
        Box::pin(async move {
            // The id is part of what a seal binds: fixed here, before sealing.
            config.id = Some(super::config_id_for(&config));
            let sealed = self.convert(scope, task_id, config, true)?;
            let stored = self
                .inner
                .set_push_config_from(scope, task_id, sealed, protocol);
            self.convert(scope, task_id, stored.await?, false)
        })
    }

    fn push_targets<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        limit: u32,
    ) -> StoreFuture<'a, Vec<super::PushTarget>> {
        Box::pin(async move {
            let targets = self.inner.push_targets(scope, task_id, limit).await?;
            targets
                .into_iter()
                .map(|mut target| {
                    target.config = self.convert(scope, task_id, target.config, false)?;
                    Ok(target)
                })
                .collect()
        })
    }

    fn get_push_config<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config_id: &'a str,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>> {
        Box::pin(async move {
            let found = self
                .inner
                .get_push_config(scope, task_id, config_id)
                .await?;
            found
                .map(|c| self.convert(scope, task_id, c, false))
                .transpose()
        })
    }

    fn list_push_configs<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        page_size: Option<u32>,
        page_token: Option<&'a str>,
    ) -> StoreFuture<'a, PushConfigPage> {
        Box::pin(async move {
            let page = self
                .inner
                .list_push_configs(scope, task_id, page_size, page_token)
                .await?;
            let configs = page
                .configs
                .into_iter()
                .map(|c| self.convert(scope, task_id, c, false))
                .collect::<Result<_, _>>()?;
            Ok(PushConfigPage {
                configs,
                next_page_token: page.next_page_token,
            })
        })
    }

    fn delete_push_config<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config_id: &'a str,
    ) -> StoreFuture<'a, bool> {
        self.inner.delete_push_config(scope, task_id, config_id)
    }

    fn outbox(&self) -> Option<super::OutboxId> {
        self.inner.outbox()
    }

    /// The claimed configs with their secrets opened (a config whose secrets do not open is
    /// claimed as it is stored, and its delivery fails: the sender refuses the sealed token).
    fn claim_deliveries<'a>(
        &'a self,
        holder: &'a str,
        ttl: std::time::Duration,
        which: super::Deliveries<'a>,
        limit: u32,
    ) -> StoreFuture<'a, Vec<super::Delivery>> {
        Box::pin(async move {
            let mut claimed = self
                .inner
                .claim_deliveries(holder, ttl, which, limit)
                .await?;
            // A secret that does not open (another key) is sent as stored: its receiver
            // refuses it, and the queue is not held up.
            for delivery in &mut claimed {
                let scope = Scope::tenant(Some(&delivery.tenant));
                let (task_id, config) = (&delivery.task_id, &mut delivery.config);
                let _ = self.convert_in_place(scope, task_id, config, false);
            }
            Ok(claimed)
        })
    }

    fn queued_notifications<'a>(
        &'a self,
        delivery: &'a super::Delivery,
        limit: u32,
    ) -> StoreFuture<'a, Vec<super::LoggedEvent>> {
        self.inner.queued_notifications(delivery, limit)
    }

    fn notification_sent<'a>(
        &'a self,
        delivery: &'a super::Delivery,
        version: u64,
    ) -> StoreFuture<'a, ()> {
        self.inner.notification_sent(delivery, version)
    }

    fn release_delivery<'a>(
        &'a self,
        delivery: &'a super::Delivery,
        holder: &'a str,
    ) -> StoreFuture<'a, ()> {
        self.inner.release_delivery(delivery, holder)
    }

    fn renew_deliveries<'a>(
        &'a self,
        holder: &'a str,
        ttl: Option<std::time::Duration>,
    ) -> StoreFuture<'a, u64> {
        self.inner.renew_deliveries(holder, ttl)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryStore;
    use a2a_types::v1::AuthenticationInfo;

    fn config(id: &str) -> TaskPushNotificationConfig {
        TaskPushNotificationConfig {
            id: Some(id.into()),
            url: "https://hook.invalid/".into(),
            token: Some("tok-secret".into()),
            authentication: Some(AuthenticationInfo {
                scheme: "Bearer".into(),
                credentials: Some("cred-secret".into()),
            }),
            ..Default::default()
        }
    }

    #[tokio::test]
    async fn secrets_are_sealed_in_the_store_and_opened_for_the_caller() {
        let plain = Arc::new(MemoryStore::new());
        let sealed = SealedPushConfigs::new(plain.clone(), &[1; 32]).unwrap();
        let scope = Scope::tenant(Some("t")).owner("alice");
        let written = sealed
            .set_push_config(scope, "task", config("c"))
            .await
            .unwrap();
        assert_eq!(written, {
            let mut c = config("c");
            c.task_id = Some("task".into());
            c.tenant = Some("t".into());
            c
        });
        let raw = plain
            .get_push_config(scope, "task", "c")
            .await
            .unwrap()
            .unwrap();
        let raw_text = serde_json::to_string(&raw).unwrap();
        assert!(!raw_text.contains("secret"), "{raw_text}");
        assert!(raw.token.unwrap().starts_with(SEALED));
        assert_eq!(
            sealed.get_push_config(scope, "task", "c").await.unwrap(),
            Some(written.clone())
        );
        let page = sealed
            .list_push_configs(scope, "task", None, None)
            .await
            .unwrap();
        assert_eq!(page.configs, [written]);

        // Another key: an error, not a garbled secret.
        let other = SealedPushConfigs::new(plain.clone(), &[2; 32]).unwrap();
        let err = other.get_push_config(scope, "task", "c").await.unwrap_err();
        assert!(err.to_string().contains("does not open"), "{err}");

        // A sealed value moved to another config does not open there.
        let mut moved = plain
            .get_push_config(scope, "task", "c")
            .await
            .unwrap()
            .unwrap();
        moved.id = Some("d".into());
        plain.set_push_config(scope, "task", moved).await.unwrap();
        assert!(sealed.get_push_config(scope, "task", "d").await.is_err());

        // A config stored before the key is read as it is.
        plain
            .set_push_config(scope, "task", config("old"))
            .await
            .unwrap();
        let old = sealed
            .get_push_config(scope, "task", "old")
            .await
            .unwrap()
            .unwrap();
        assert_eq!(old.token.as_deref(), Some("tok-secret"));
        assert_eq!(
            SealedPushConfigs::new(plain, &[0; 16]).unwrap_err(),
            KeyLengthError(16)
        );
    }
}
