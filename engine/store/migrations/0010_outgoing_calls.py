from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0009_game_options')]

    initial = False

    operations = [
        ops.CreateModel(
            name='OutgoingCall',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('chat', fields.CharField(max_length=128)),
                ('method', fields.CharField(max_length=64)),
                ('payload', fields.JSONField()),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('claimed_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('claimed_by', fields.CharField(null=True, max_length=64)),
            ],
            options={'table': 'outgoing_call', 'app': 'models', 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
