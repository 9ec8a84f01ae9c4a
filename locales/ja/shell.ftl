# セッション自身がエラーバナーに書く言葉（src/ui/session.rs）。エージェント名は翻訳しません。
# { $why } と { $error } は元のエラー自身の言葉です。

session-fix-settings = { $why }。先に「設定」で直してください（何も開始していません）
session-busy = 実行中です：終わるまで待つか、「停止」を押してください
session-file-no-prompt = プロトコルファイルのチームにリーダーへのプロンプトがありません
session-sender-gone = { $name } はシャットダウンしたため、もうメッセージを送れません
session-settings-not-used = 保存された実行の設定は使われませんでした：{ $error }。トレースは表示しています。設定は変わっていません
session-not-restored = 再読み込み前の実行を復元できませんでした：{ $error }

## モデルのプロバイダー（メニューとタイトルの下の行）
provider-scripted = スクリプト（オフライン）
provider-anthropic = Anthropic（あなたのキー）
provider-openai = OpenAI 互換（ベース URL）
provider-unknown = 不明なプロバイダー
session-also = { $first }。さらに：{ $later }
