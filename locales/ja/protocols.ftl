# プロトコル表示（src/ui/protocols.rs、src/view/protocol_file）。キー、名前、
# メッセージ型、ツール名、`request_id`、`pending`、`approved`、`rejected` は
# 翻訳しない。{ $detail }、{ $known }、{ $error } は下層からの英文。

## ファイルのエラー（ここにない種類はローダーの英文のまま）
pf-too-large = ファイルは { $bytes } バイトです。エディターが検査するのは { $max } バイトまでです：小さくしてください
pf-error-syntax = 有効な TOML ではありません：{ $detail }
pf-error-unknown-key = 不明なキー '{ $key }'。ここで使えるキー：{ $known }
pf-error-missing-key = '{ $key }' がありません：追加してください
pf-error-wrong-type = ここには { $expected } が必要ですが、{ $found } があります
pf-error-no-format = ファイルが形式を示していません：1 行目に `format = 1` を追加してください
pf-error-format = 形式 { $format } はこのバージョンでは読めません：`format = 1` と書いてください
pf-error-bad-name = '{ $name }' は有効な名前ではありません：名前は小文字で始まり、その後に小文字・数字・'_' を 31 文字まで続けます
pf-error-duplicate = 名前 '{ $name }' が 2 回使われています（最初は { $line } 行目）。それぞれに別の名前を付けてください
pf-error-unknown = '{ $name }' という名前のものはありません。使える名前：{ $known }

## 表示
ui-protocols = プロトコル
ui-protocols-title = プロトコルファイル
ui-protocols-close = プロトコルファイルを閉じる
ui-key-protocols = プロトコルファイルを開く・閉じる
ui-pf-lesson = レッスンのプロトコル
ui-pf-teams = 組み込みのチーム
ui-pf-examples = 例
ui-pf-mine = あなたのファイル
ui-pf-none = まだ自分のファイルはありません。
ui-pf-new = 新しいファイル
ui-pf-new-name = 新しいプロトコル
ui-pf-copy-name = { $name }（コピー）
ui-pf-edit-copy = コピーを編集
ui-pf-show = 表示
ui-pf-open = 編集
ui-pf-delete = 削除
ui-pf-delete-named = { $name } を削除
ui-pf-deleted = { $name } を削除しました。
ui-pf-undo = 元に戻す
ui-pf-name = ファイル名
ui-pf-read-only = 組み込み・読み取り専用：変更するにはコピーを編集してください。
ui-pf-text = ファイルの内容
ui-pf-saved = このブラウザーに保存しました。
ui-pf-errors = エラー { $count } 件
ui-pf-loads = ファイルは読み込めます。
ui-pf-at = { $line } 行 { $column } 列
ui-pf-whole-file = （ファイル全体）
ui-pf-english-note = 一部の文は英語で表示されます。
ui-pf-previews = プレビュー
ui-pf-fsm = 有限状態機械 (FSM)
ui-pf-tracker = トラッカー
ui-pf-tools-lead = リーダーのツール
ui-pf-tools-teammate = チームメイトのツール
ui-pf-no-tools = なし
ui-pf-config = メンバー一覧 (config.json)
ui-pf-no-team = ファイルにチームがありません。
ui-pf-store-damaged = 保存されたプロトコルファイルを読めませんでした（{ $error }）。{ $key } に退避し、ほかは何も変えていません。
ui-pf-store-write = ブラウザーがファイルの保存を拒否しました（{ $error }）。
ui-pf-pick = ファイルを選ぶとここに表示されます。
ui-pf-run = チームを実行
ui-pf-adopted = { $name } は画面上の実行とともに届き、あなたのファイルに追加されました。
pf-run-unchecked = ファイルを検査しています。
pf-run-errors = チームを実行するには、下のエラー { $count } 件を直してください。
pf-run-no-team = ファイルに実行する [team] がありません：追加してください（テンプレートを参照）。
pf-run-no-prompt = チームにリーダーへのプロンプトがありません：prompts に追加してください。
ui-pf-explore = チームを探索
